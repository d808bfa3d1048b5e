// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: knobs. Each policy declares its tunables once, in a table of
 * struct plugsched_knob; while the policy is active they are entries of
 * /proc/sys/kernel, written through one handler that takes exactly one
 * value in the declared range (or one of the declared choices). The
 * entries go before the policy does: unregistering waits for the writers
 * inside the handler.
 */
#include <linux/plugsched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysctl.h>

#include "plugsched_internal.h"

/* Knob writes; a policy's knobs go before the policy does. */
static DEFINE_MUTEX(plugsched_mutex);
static struct ctl_table *plugsched_sysctl_table;
static struct ctl_table_header *plugsched_sysctl_header;
/* Set once sysctl is up (plugsched_ui.c): a boot policy registers its knobs then. */
bool plugsched_sysctl_ready;

int plugsched_knob_handler(const struct ctl_table *table, int write,
			   void *buffer, size_t *lenp, loff_t *ppos)
{
	const struct plugsched_knob *knob = table->extra1;
	char buf[32];
	size_t len;
	int val;

	if (!write) {
		val = READ_ONCE(*knob->value);
		if (knob->choices)
			len = scnprintf(buf, sizeof(buf), "%s\n", knob->choices[val]);
		else
			len = scnprintf(buf, sizeof(buf), "%d\n", val);
		if (*ppos >= len) {
			*lenp = 0;
			return 0;
		}
		len = min_t(size_t, len - *ppos, *lenp);
		memcpy(buffer, buf + *ppos, len);
		*lenp = len;
		*ppos += len;
		return 0;
	}

	/* Exactly one value, written at once: anything else is rejected. */
	if (*ppos || !*lenp || *lenp >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, buffer, *lenp);
	buf[*lenp] = '\0';

	if (knob->choices) {
		val = match_string(knob->choices, -1, strim(buf));
		if (val < 0)
			return -EINVAL;
	} else if (kstrtoint(strim(buf), 10, &val) || val > knob->max ||
		   (val < knob->min && !(knob->zero_off && !val))) {
		return -EINVAL;
	}

	/*
	 * A policy's knobs are unregistered, waiting for writers like this
	 * one, before the policy goes: plugsched_cur_ops is the knob's policy here.
	 */
	mutex_lock(&plugsched_mutex);
	WRITE_ONCE(*knob->value, val);
	mutex_unlock(&plugsched_mutex);
	/*
	 * The test of a fall back whose knobs go while a writer the policy
	 * starves is still inside this handler: let the policy pick.
	 */
	if (plugsched_breaks(PLUGSCHED_BREAK_KNOB_WINDOW))
		schedule();

	*ppos += *lenp;
	return 0;
}

void plugsched_knob_entry(struct ctl_table *entry,
			  const struct plugsched_knob *knob)
{
	entry->procname = knob->name;
	entry->data = knob->value;
	entry->maxlen = sizeof(int);
	entry->mode = 0644;
	entry->proc_handler = plugsched_knob_handler;
	entry->extra1 = (void *)knob;
}

/*
 * /proc/sys/kernel entries for @ops' knobs; NULL if a name is taken or no
 * memory. A name must never be taken: 6.12's failed registration erases
 * entries it never inserted, and with them the whole directory's tree.
 */
static struct ctl_table_header *plugsched_knob_table(const struct plugsched_ops *ops,
						     struct ctl_table **tablep)
{
	unsigned int i, n = plugsched_nr_knobs(ops);
	struct ctl_table_header *header;
	struct ctl_table *table;

	table = kcalloc(n, sizeof(*table), GFP_KERNEL);
	if (!table)
		return NULL;
	for (i = 0; i < n; i++)
		plugsched_knob_entry(&table[i], plugsched_knob(ops, i));
	header = register_sysctl_sz("kernel", table, n);
	if (!header) {
		kfree(table);
		return NULL;
	}
	*tablep = table;
	return header;
}

int plugsched_register_knobs(const struct plugsched_ops *ops)
{
	if (!plugsched_nr_knobs(ops) || !plugsched_sysctl_ready)
		return 0;
	plugsched_sysctl_header = plugsched_knob_table(ops, &plugsched_sysctl_table);
	return plugsched_sysctl_header ? 0 : -ENOMEM;
}

/* Waits for writers in progress; later opens fail. */
void plugsched_unregister_knobs(void)
{
	if (!plugsched_sysctl_header)
		return;
	unregister_sysctl_table(plugsched_sysctl_header);
	kfree(plugsched_sysctl_table);
	plugsched_sysctl_header = NULL;
	plugsched_sysctl_table = NULL;
}

/* Every knob of @ops back to its default, at each activation. */
void plugsched_knobs_reset(const struct plugsched_ops *ops)
{
	unsigned int i;

	for (i = 0; i < plugsched_nr_knobs(ops); i++)
		WRITE_ONCE(*plugsched_knob(ops, i)->value, plugsched_knob(ops, i)->def);
}
