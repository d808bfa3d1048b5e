// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: the registered policies. PLUGSCHED_POLICY() places a policy's
 * ops in the __plugsched_policies section; at boot the core completes a
 * derived policy from its base, checks every policy before it trusts it
 * (plugsched_validate_ops()), and lists those that pass. The core has no
 * list of policies of its own.
 */
#include <linux/ctype.h>
#include <linux/init.h>
#include <linux/plugsched.h>
#include <linux/string.h>

#include "plugsched_internal.h"

/* Registration: the policies PLUGSCHED_POLICY() placed, checked at boot. */

#define PLUGSCHED_KNOB_NAME_MAX	63
#define PLUGSCHED_BALANCE_MS_MAX	10000
#define PLUGSCHED_IMBALANCE_PCT_MAX	1000

/* The policies that passed, in link order, derived ones last. */
static const struct plugsched_ops *plugsched_policies[PLUGSCHED_MAX_POLICIES] __ro_after_init;
static unsigned int plugsched_nr_policies __ro_after_init;

/**
 * plugsched_find - a registered policy by name
 * @name:	the name; a trailing newline is ignored
 *
 * Return: the policy, or NULL.
 */
const struct plugsched_ops *plugsched_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < plugsched_nr_policies; i++)
		if (sysfs_streq(name, plugsched_policies[i]->name))
			return plugsched_policies[i];
	return NULL;
}

static __printf(3, 4) int plugsched_refuse(char *why, size_t size, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vscnprintf(why, size, fmt, args);
	va_end(args);
	return -EINVAL;
}

/* 1..@max characters of [a-z0-9_]. */
static bool plugsched_name_ok(const char *name, size_t max)
{
	size_t i, len = name ? strnlen(name, max + 1) : 0;

	if (!len || len > max)
		return false;
	for (i = 0; i < len; i++)
		if (!islower(name[i]) && !isdigit(name[i]) && name[i] != '_')
			return false;
	return true;
}

/* The callbacks the core calls without checking for NULL. */
#define PLUGSCHED_REQUIRED(cb)	{ offsetof(struct plugsched_ops, cb), #cb }

static const struct {
	size_t		offset;
	const char	*name;
} plugsched_required[] = {
	PLUGSCHED_REQUIRED(init_rq), PLUGSCHED_REQUIRED(task_init),
	PLUGSCHED_REQUIRED(enqueue), PLUGSCHED_REQUIRED(dequeue),
	PLUGSCHED_REQUIRED(pick), PLUGSCHED_REQUIRED(slice_expired),
	PLUGSCHED_REQUIRED(preempt), PLUGSCHED_REQUIRED(yield),
	PLUGSCHED_REQUIRED(migration_candidate),
};

static int plugsched_validate_knob(const struct plugsched_ops *ops, unsigned int i,
				   char *why, size_t size)
{
	const struct plugsched_knob *knob = plugsched_knob(ops, i);
	unsigned int j, n = 0;

	if (!plugsched_name_ok(knob->name, PLUGSCHED_KNOB_NAME_MAX))
		return plugsched_refuse(why, size, "knob %u: name \"%s\" is not 1..%d of [a-z0-9_]",
					i, knob->name ?: "(null)", PLUGSCHED_KNOB_NAME_MAX);
	if (!knob->value)
		return plugsched_refuse(why, size, "knob %s: no variable", knob->name);
	if (knob->min > knob->def || knob->def > knob->max)
		return plugsched_refuse(why, size, "knob %s: not min <= def <= max (%d, %d, %d)",
					knob->name, knob->min, knob->def, knob->max);
	if (knob->choices && knob->zero_off)
		return plugsched_refuse(why, size, "knob %s: choices cannot be off", knob->name);
	if (knob->choices) {
		while (knob->choices[n])
			n++;
		if (knob->min || knob->max != (int)n - 1)
			return plugsched_refuse(why, size,
						"knob %s: min..max (%d..%d) must index its %u choices",
						knob->name, knob->min, knob->max, n);
	}
	if (!strcmp(knob->name, PLUGSCHED_WATCHDOG_KNOB) ||
	    !strcmp(knob->name, PLUGSCHED_RELIEF_KNOB))
		return plugsched_refuse(why, size, "knob %s: the core's own", knob->name);
	for (j = 0; j < i; j++)
		if (!strcmp(plugsched_knob(ops, j)->name, knob->name))
			return plugsched_refuse(why, size, "knob %s: declared twice", knob->name);
	return 0;
}

/**
 * plugsched_validate_ops - check a policy before the core trusts it
 * @ops:	the policy; a derived one completed from its base already
 * @why:	where the reason of a refusal goes
 * @size:	size of @why
 *
 * As sched_ext's validate_ops(): the name is usable with sched= and
 * differs from mainline's, every callback the core calls unchecked is
 * there, the balancing numbers are in range, and the knob tables (the
 * base's included) are well formed: names usable in /proc/sys/kernel,
 * unique and not the core's own, a variable each, min <= def <= max, and a
 * choice knob's range indexes its choices. Whether a name is free in
 * /proc/sys/kernel beside mainline's is not checked: 6.12's sysctl code
 * cannot be asked, and a failed registration damages the directory.
 *
 * Return: 0, or -EINVAL with the reason in @why.
 */
int plugsched_validate_ops(const struct plugsched_ops *ops, char *why, size_t size)
{
	unsigned int i;
	int ret;

	if (!plugsched_name_ok(ops->name, PLUGSCHED_NAME_MAX))
		return plugsched_refuse(why, size, "name \"%s\" is not 1..%d of [a-z0-9_]",
					ops->name ?: "(null)", PLUGSCHED_NAME_MAX);
	if (!strcmp(ops->name, PLUGSCHED_MAINLINE_NAME))
		return plugsched_refuse(why, size, "the name %s is mainline's", ops->name);
	for (i = 0; i < ARRAY_SIZE(plugsched_required); i++)
		if (!*(void * const *)((const void *)ops + plugsched_required[i].offset))
			return plugsched_refuse(why, size, "no %s callback",
						plugsched_required[i].name);
	if (!ops->balance_ms || ops->balance_ms > PLUGSCHED_BALANCE_MS_MAX)
		return plugsched_refuse(why, size, "balance_ms %u is not in 1..%d",
					ops->balance_ms, PLUGSCHED_BALANCE_MS_MAX);
	if (!ops->idle_balance_ms || ops->idle_balance_ms > PLUGSCHED_BALANCE_MS_MAX)
		return plugsched_refuse(why, size, "idle_balance_ms %u is not in 1..%d",
					ops->idle_balance_ms, PLUGSCHED_BALANCE_MS_MAX);
	if (ops->imbalance_pct < 100 || ops->imbalance_pct > PLUGSCHED_IMBALANCE_PCT_MAX)
		return plugsched_refuse(why, size, "imbalance_pct %u is not in 100..%d",
					ops->imbalance_pct, PLUGSCHED_IMBALANCE_PCT_MAX);
	if ((ops->nr_knobs && !ops->knobs) ||
	    (ops->base && ops->base->nr_knobs && !ops->base->knobs))
		return plugsched_refuse(why, size, "knobs counted but not given");
	for (i = 0; i < plugsched_nr_knobs(ops); i++) {
		ret = plugsched_validate_knob(ops, i, why, size);
		if (ret)
			return ret;
	}
	return 0;
}

/* The callbacks a derived policy takes from its base when it has none. */
#define PLUGSCHED_OP(name)	offsetof(struct plugsched_ops, name)

static const size_t plugsched_callbacks[] __initconst = {
	PLUGSCHED_OP(init), PLUGSCHED_OP(init_rq),
	PLUGSCHED_OP(task_init), PLUGSCHED_OP(fork), PLUGSCHED_OP(enqueue),
	PLUGSCHED_OP(dequeue), PLUGSCHED_OP(pick), PLUGSCHED_OP(set_next),
	PLUGSCHED_OP(put_prev), PLUGSCHED_OP(charge), PLUGSCHED_OP(slice_expired),
	PLUGSCHED_OP(tick), PLUGSCHED_OP(preempt), PLUGSCHED_OP(yield),
	PLUGSCHED_OP(prio_changed), PLUGSCHED_OP(migration_candidate),
	PLUGSCHED_OP(select_cpu), PLUGSCHED_OP(balance), PLUGSCHED_OP(show_task),
	PLUGSCHED_OP(rr_interval), PLUGSCHED_OP(count), PLUGSCHED_OP(dump),
	PLUGSCHED_OP(wait_bound),
};

/* Every callback, from @init to the end of the struct, is in the list. */
static_assert(sizeof(plugsched_callbacks) / sizeof(size_t) * sizeof(void *) ==
	      sizeof(struct plugsched_ops) - PLUGSCHED_OP(init));

static void __init plugsched_inherit(struct plugsched_ops *ops)
{
	const struct plugsched_ops *base = ops->base;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(plugsched_callbacks); i++) {
		void **fn = (void *)ops + plugsched_callbacks[i];

		if (!*fn)
			*fn = *(void * const *)((const void *)base + plugsched_callbacks[i]);
	}
	if (!ops->balance_ms)
		ops->balance_ms = base->balance_ms;
	if (!ops->idle_balance_ms)
		ops->idle_balance_ms = base->idle_balance_ms;
	if (!ops->imbalance_pct)
		ops->imbalance_pct = base->imbalance_pct;
	ops->balance_by_load |= base->balance_by_load;
	ops->home_nodes |= base->home_nodes;
}

/* Complete @ops from its base, check it, and list it, or say why not. */
static void __init plugsched_register(struct plugsched_ops *ops)
{
	char why[128];
	int ret = 0;

	if (ops->base_name) {
		const struct plugsched_ops *base = plugsched_find(ops->base_name);

		if (!base || base->base_name) {
			ret = plugsched_refuse(why, sizeof(why),
					       "base %s is not a registered policy of its own",
					       ops->base_name);
		} else {
			ops->base = base;
			plugsched_inherit(ops);
		}
	}
	if (!ret)
		ret = plugsched_validate_ops(ops, why, sizeof(why));
	if (!ret && plugsched_find(ops->name))
		ret = plugsched_refuse(why, sizeof(why), "a policy of that name is registered");
	if (!ret && plugsched_nr_policies == PLUGSCHED_MAX_POLICIES)
		ret = plugsched_refuse(why, sizeof(why), "more than %d policies",
				       PLUGSCHED_MAX_POLICIES);
	if (ret) {
		pr_err("plugsched: policy %s refused: %s\n", ops->name ?: "(null)", why);
		return;
	}
	plugsched_policies[plugsched_nr_policies++] = ops;
}

/* Bases first: a derived policy is completed from a registered one. */
void __init plugsched_register_all(void)
{
	struct plugsched_ops * const *p;

	for (p = __plugsched_policies_start; p < __plugsched_policies_end; p++)
		if (!(*p)->base_name)
			plugsched_register(*p);
	for (p = __plugsched_policies_start; p < __plugsched_policies_end; p++)
		if ((*p)->base_name)
			plugsched_register(*p);
}

/* The @i-th registered policy, or NULL past the last. */
const struct plugsched_ops *plugsched_policy(unsigned int i)
{
	return i < plugsched_nr_policies ? plugsched_policies[i] : NULL;
}

/* "eevdf" and the registered policies, space separated. */
int plugsched_list_choices(char *list, size_t size)
{
	unsigned int i;
	int len;

	len = scnprintf(list, size, "%s", PLUGSCHED_MAINLINE_NAME);
	for (i = 0; i < plugsched_nr_policies; i++)
		len += scnprintf(list + len, size - len, " %s", plugsched_policies[i]->name);
	return len;
}

#ifdef CONFIG_PLUGSCHED_KUNIT_TEST
#include "plugsched_kunit.c"
#endif
