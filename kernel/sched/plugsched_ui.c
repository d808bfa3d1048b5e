// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: where policies and users meet the core. Policies register
 * with PLUGSCHED_POLICY() and are checked before they are trusted; users
 * choose one with sched= at boot or /sys/kernel/plugsched/active at run
 * time, tune it through /proc/sys/kernel and read the core's state in
 * /sys/kernel/plugsched, /proc/scheduler and debugfs.
 */
#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/plugsched.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysctl.h>
#include <linux/sysfs.h>

#include "plugsched_internal.h"

/* Knobs: /proc/sys/kernel/<name> for the active policy's tunables. */

/* The core's own knob, registered whichever scheduler runs. */

/*
 * The core's knobs are 0 (off) or min..max. Under mainline a task waits
 * hundreds of ms among a few hundred others (a base slice each): a
 * watchdog limit under a second would eject a policy for waits mainline
 * has too. Relief under 100 ms would overrule the policies' own turns (an
 * sd quantum, an o1 slice) rather than rescue a starved task.
 */
static const struct plugsched_knob plugsched_watchdog_knob = {
	.name	= PLUGSCHED_WATCHDOG_KNOB,
	.unit	= "ms",
	.value	= &plugsched_watchdog_ms,
	.min	= 1000,
	.max	= 600000,
	.def	= 30000,
	.zero_off = true,
};

static const struct plugsched_knob plugsched_relief_knob = {
	.name	= PLUGSCHED_RELIEF_KNOB,
	.unit	= "ms",
	.value	= &plugsched_relief_ms,
	.min	= 100,
	.max	= 600000,
	.def	= PLUGSCHED_RELIEF_DEF_MS,
	.zero_off = true,
};

/* Boot: sched= and the default */

static char plugsched_boot_name[32] __initdata;
static unsigned int plugsched_boot_given __initdata;

static bool plugsched_name_valid(const char *name)
{
	return sysfs_streq(name, PLUGSCHED_MAINLINE_NAME) || plugsched_find(name);
}

static int __init plugsched_setup(char *str)
{
	plugsched_boot_given++;
	/* A name too long for any policy stays invalid: keep it truncated. */
	if (str)
		strscpy(plugsched_boot_name, str, sizeof(plugsched_boot_name));
	return 0;
}
early_param("sched", plugsched_setup);

static void __init plugsched_warn_choices(void)
{
	char list[PLUGSCHED_MAX_POLICIES * (PLUGSCHED_NAME_MAX + 1) + 8];

	plugsched_list_choices(list, sizeof(list));
	pr_warn("plugsched: choices: %s\n", list);
}

/* Called from sched_init(), before any task but init_task exists. */
void __init plugsched_init(void)
{
	const char *name = CONFIG_PLUGSCHED_DEFAULT_NAME;
	const struct plugsched_ops *ops;
	unsigned int i;
	int cpu;

	plugsched_register_all();
	/* Every knob holds its default from here on: the tables are the one source. */
	WRITE_ONCE(plugsched_watchdog_ms, plugsched_watchdog_knob.def);
	WRITE_ONCE(plugsched_relief_ms, plugsched_relief_knob.def);
	for (i = 0; (ops = plugsched_policy(i)); i++)
		plugsched_knobs_reset(ops);
	plugsched_tasks_init();

	for_each_possible_cpu(cpu) {
		struct plugsched_rq *prq = &cpu_rq(cpu)->plug;

		memset(prq, 0, sizeof(*prq));
		prq->cpu = cpu;
		/* No policy yet: the core alone runs what a switch misses. */
		prq->bypass = true;
		prq->pools = RB_ROOT_CACHED;
		prq->waits = RB_ROOT_CACHED;
		plugsched_pool_init(&prq->root_pool);
		INIT_LIST_HEAD(&prq->runnable_idle);
#ifdef CONFIG_CFS_BANDWIDTH
		INIT_LIST_HEAD(&prq->parked);
#endif
	}

	/* Names are exact (lower case); two sched= are one too many. */
	if (plugsched_boot_given > 1) {
		pr_warn("plugsched: sched= given %u times, using \"%s\"\n",
			plugsched_boot_given, name);
		plugsched_warn_choices();
	} else if (plugsched_boot_given) {
		if (plugsched_name_valid(plugsched_boot_name)) {
			name = plugsched_boot_name;
		} else {
			pr_warn("plugsched: unknown scheduler \"%s\" in sched=, using \"%s\"\n",
				plugsched_boot_name, name);
			plugsched_warn_choices();
		}
	}

	ops = plugsched_find(name);
	if (!ops && !sysfs_streq(name, PLUGSCHED_MAINLINE_NAME))
		pr_warn("plugsched: the default %s is not available, using %s\n", name,
			PLUGSCHED_MAINLINE_NAME);
	/* The class walk relies on fair > plug > idle in the linker order. */
	if (ops && WARN_ON_ONCE(!sched_class_above(&fair_sched_class, &plug_sched_class) ||
				!sched_class_above(&plug_sched_class, &idle_sched_class)))
		ops = NULL;
	if (ops && plugsched_enable_at_boot(ops)) {
		pr_err("plugsched: %s failed to start, using %s\n", ops->name,
		       PLUGSCHED_MAINLINE_NAME);
		ops = NULL;
	}
	pr_info("plugsched: CPU scheduler: %s\n", ops ? ops->name : PLUGSCHED_MAINLINE_NAME);
}

/* Reporting and switching: /sys/kernel/plugsched and /proc/scheduler */

static ssize_t active_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s\n", plugsched_active_name());
}

static ssize_t active_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	const struct plugsched_ops *ops = NULL;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!sysfs_streq(buf, PLUGSCHED_MAINLINE_NAME)) {
		ops = plugsched_find(buf);
		if (!ops)
			return -EINVAL;
	}
	ret = plugsched_request_switch(ops);
	if (ret)
		return ret;
	/* The switch knows nothing of the watchdog: start it for the new policy. */
	if (ops)
		plugsched_watchdog_start();
	return count;
}

static ssize_t available_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	int len = plugsched_list_choices(buf, PAGE_SIZE - 1);

	return len + sysfs_emit_at(buf, len, "\n");
}

static ssize_t state_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return plugsched_state_show(buf, PAGE_SIZE);
}

static ssize_t switches_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%lu\n", plugsched_nr_switches());
}

/* One knob a line: name, value, range (min..max, or the choices), default, unit. */
static int plugsched_knob_show(char *buf, int at, const struct plugsched_knob *knob)
{
	int val = READ_ONCE(*knob->value), i, len;

	if (!knob->choices)
		return sysfs_emit_at(buf, at, "%s %d %s%d..%d %d %s\n", knob->name, val,
				     knob->zero_off ? "0|" : "",
				     knob->min, knob->max, knob->def, knob->unit ?: "-");
	len = sysfs_emit_at(buf, at, "%s %s ", knob->name, knob->choices[val]);
	for (i = knob->min; i <= knob->max; i++)
		len += sysfs_emit_at(buf, at + len, "%s%s", i > knob->min ? "|" : "",
				     knob->choices[i]);
	return len + sysfs_emit_at(buf, at + len, " %s -\n", knob->choices[knob->def]);
}

/*
 * /sys/kernel/plugsched/knobs: the core's knob and the active policy's,
 * as declared, with their values; what Documentation and the tests read.
 */
static ssize_t knobs_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	const struct plugsched_ops *ops;
	unsigned int i;
	int len;

	len = plugsched_knob_show(buf, 0, &plugsched_watchdog_knob);
	len += plugsched_knob_show(buf, len, &plugsched_relief_knob);
	/* Knob tables are static: they outlive a switch. */
	ops = READ_ONCE(plugsched_cur_ops);
	for (i = 0; ops && i < plugsched_nr_knobs(ops); i++)
		len += plugsched_knob_show(buf, len, plugsched_knob(ops, i));
	return len;
}

static struct kobj_attribute plugsched_active_attr = __ATTR_RW(active);
static struct kobj_attribute plugsched_available_attr = __ATTR_RO(available);
static struct kobj_attribute plugsched_state_attr = __ATTR_RO(state);
static struct kobj_attribute plugsched_switches_attr = __ATTR_RO(switches);
static struct kobj_attribute plugsched_knobs_attr = __ATTR_RO(knobs);

static struct attribute *plugsched_attrs[] = {
	&plugsched_active_attr.attr,
	&plugsched_available_attr.attr,
	&plugsched_state_attr.attr,
	&plugsched_switches_attr.attr,
	&plugsched_knobs_attr.attr,
	NULL,
};

static const struct attribute_group plugsched_attr_group = {
	.attrs = plugsched_attrs,
};

static int plugsched_proc_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", plugsched_active_name());
	return 0;
}

static struct ctl_table plugsched_core_table[2];

/* A new watchdog limit takes effect at once, not at the next scan. */
static int plugsched_watchdog_knob_handler(const struct ctl_table *table, int write,
					   void *buffer, size_t *lenp, loff_t *ppos)
{
	int ret = plugsched_knob_handler(table, write, buffer, lenp, ppos);

	if (!ret && write)
		plugsched_watchdog_kick();
	return ret;
}

#ifdef CONFIG_DEBUG_FS
/*
 * /sys/kernel/debug/sched/plug_server/cpuN/{runtime,period}: the plug
 * server's parameters in ns, with the fair server's rules (debug.c): a
 * period of 100 us .. ~4 s, a runtime of 0 (off) .. the period.
 */
#define PLUG_SERVER_PERIOD_MIN	(100 * NSEC_PER_USEC)
#define PLUG_SERVER_PERIOD_MAX	((1UL << 22) * NSEC_PER_USEC)

static int plug_server_show(struct seq_file *m, void *v)
{
	long priv = (long)m->private;

	seq_printf(m, "%llu\n", plugsched_server_params(priv & 0xffff, priv >> 16));
	return 0;
}

/* Under mainline the values wait for the next policy: see plugsched_server_set(). */
static ssize_t plug_server_write(struct file *filp, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	long priv = (long)((struct seq_file *)filp->private_data)->private;
	int cpu = priv & 0xffff;
	struct rq *rq = cpu_rq(cpu);
	u64 runtime, period, value;
	int ret;

	ret = kstrtoull_from_user(ubuf, cnt, 10, &value);
	if (ret)
		return ret;

	scoped_guard (rq_lock_irqsave, rq) {
		runtime = priv >> 16 ? plugsched_server_params(cpu, false) : value;
		period = priv >> 16 ? value : plugsched_server_params(cpu, true);
		if (runtime > period || period > PLUG_SERVER_PERIOD_MAX ||
		    period < PLUG_SERVER_PERIOD_MIN)
			return -EINVAL;
		if (!cpu_online(cpu))
			return -EBUSY;
		ret = plugsched_server_set(rq, runtime, period);
		if (ret < 0)
			return ret;
		if (!runtime)
			printk_deferred("plugsched: plug server off on CPU %d, RT tasks may starve plugged ones\n",
					cpu);
	}
	*ppos += cnt;
	return cnt;
}

DEFINE_SHOW_STORE_ATTRIBUTE(plug_server);

/*
 * /sys/kernel/debug/sched/plug_released: per CPU, how often a higher class
 * took it from the policy, for how long in all, and whether
 * it is released now.
 */
static int plug_released_show(struct seq_file *m, void *v)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct plugsched_rq *prq = &cpu_rq(cpu)->plug;
		bool released = READ_ONCE(prq->released);
		unsigned long total = READ_ONCE(prq->released_jiffies);

		if (released)
			total += jiffies - READ_ONCE(prq->released_at);
		seq_printf(m, "cpu%d releases %lu released_ms %u released %d\n", cpu,
			   READ_ONCE(prq->nr_released), jiffies_to_msecs(total), released);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(plug_released);

/* Every task from fork to its last schedule: a test compares with /proc. */
static int plug_tracked_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", plugsched_nr_tracked());
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(plug_tracked);

#ifdef CONFIG_SMP
/*
 * What schedutil sees of each online CPU: the plugged tasks' signal
 * (brought to now under the CPU's lock), the utilisation the fair class
 * reports with it (cpu_util_cfs_boost()), and schedutil's figures from
 * that, clamps applied: effective_cpu_util() and the performance level.
 */
static int plug_util_show(struct seq_file *m, void *v)
{
	int cpu;

	for_each_online_cpu(cpu) {
		unsigned long util, eff, min, max, perf = 0;
		struct rq *rq = cpu_rq(cpu);
		struct rq_flags rf;

		rq_lock_irqsave(rq, &rf);
		update_rq_clock(rq);
		plugsched_update_util(rq);
		rq_unlock_irqrestore(rq, &rf);
		util = cpu_util_cfs_boost(cpu);
		eff = effective_cpu_util(cpu, util, &min, &max);
		if (IS_ENABLED(CONFIG_CPU_FREQ_GOV_SCHEDUTIL))
			perf = sugov_effective_cpu_perf(cpu, eff, min, max);
		seq_printf(m, "cpu%d nr %u plug_nr %u plug_util %lu plug_runnable %lu util %lu eff %lu min %lu max %lu perf %lu\n",
			   cpu, READ_ONCE(rq->nr_running), READ_ONCE(rq->plug.nr_running),
			   plugsched_cpu_util(cpu, 0), READ_ONCE(rq->plug.avg.runnable_avg),
			   util, eff, min, max, perf);
	}
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(plug_util);

/*
 * The balancing's work since boot (plugsched_balance.c): a line per
 * counter, its sum over the CPUs (for irqoff_max_ns their maximum) and
 * then each possible CPU's count.
 */
static int plug_balance_show(struct seq_file *m, void *v)
{
	int i, cpu;

	for (i = 0; i < PLUGSCHED_NR_BAL_STATS; i++) {
		unsigned long sum = 0, n;

		for_each_possible_cpu(cpu) {
			n = per_cpu(plugsched_bal_stats[i], cpu);
			sum = i == PLUGSCHED_BAL_IRQOFF_MAX_NS ? max(sum, n) : sum + n;
		}
		seq_printf(m, "%s %lu", plugsched_bal_stat_names[i], sum);
		for_each_possible_cpu(cpu)
			seq_printf(m, " %lu", per_cpu(plugsched_bal_stats[i], cpu));
		seq_putc(m, '\n');
	}
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(plug_balance);
#endif

#ifdef CONFIG_PLUGSCHED_DEBUG
static const char * const plugsched_break_names[PLUGSCHED_NR_BREAKS] = {
	[PLUGSCHED_BREAK_NICE]		= "nice",
	[PLUGSCHED_BREAK_BALANCE]	= "balance",
	[PLUGSCHED_BREAK_PREEMPT]	= "preempt",
	[PLUGSCHED_BREAK_SLICE]		= "slice",
	[PLUGSCHED_BREAK_WINDOW]	= "window",
	[PLUGSCHED_BREAK_KNOB_WINDOW]	= "knob_window",
	[PLUGSCHED_BREAK_SWITCH_WINDOW]	= "switch_window",
	[PLUGSCHED_BREAK_NUMA_SCAN]	= "numa_scan",
	[PLUGSCHED_BREAK_UTIL]		= "util",
	[PLUGSCHED_BREAK_BANDWIDTH]	= "bandwidth",
	[PLUGSCHED_BREAK_GROUP_IDLE]	= "group_idle",
	[PLUGSCHED_BREAK_TAGS]		= "tags",
	[PLUGSCHED_BREAK_RELIEF]	= "relief",
};

/* Every break, the ones in effect in brackets: "[nice] balance preempt". */
static int plug_break_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < PLUGSCHED_NR_BREAKS; i++)
		seq_printf(m, test_bit(i, &plugsched_broken) ? "%s[%s]" : "%s%s",
			   i ? " " : "", plugsched_break_names[i]);
	seq_putc(m, '\n');
	return 0;
}

/* One name breaks that alone, "none" mends all; anything else: -EINVAL. */
static ssize_t plug_break_write(struct file *filp, const char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	char buf[16], *s;
	int i;

	if (cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	s = strim(buf);
	if (!strcmp(s, "none")) {
		WRITE_ONCE(plugsched_broken, 0);
		return cnt;
	}
	i = match_string(plugsched_break_names, PLUGSCHED_NR_BREAKS, s);
	if (i < 0)
		return -EINVAL;
	pr_warn("plugsched: negative control: %s broken on purpose\n", s);
	WRITE_ONCE(plugsched_broken, BIT(i));
	return cnt;
}

DEFINE_SHOW_STORE_ATTRIBUTE(plug_break);

/*
 * plug_yield_to: the writer calls yield_to() on the task whose PID it
 * writes, as KVM's vCPU threads do on a preempted lock holder's: the
 * write returns when the writer runs again; -EAGAIN if nothing yielded.
 */
static ssize_t plug_yield_to_write(struct file *filp, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	struct task_struct *p;
	pid_t pid;
	int ret;

	ret = kstrtoint_from_user(ubuf, cnt, 10, &pid);
	if (ret)
		return ret;
	p = find_get_task_by_vpid(pid);
	if (!p)
		return -ESRCH;
	ret = yield_to(p, true);
	put_task_struct(p);
	if (ret < 0)
		return ret;
	return ret ? cnt : -EAGAIN;
}

static const struct file_operations plug_yield_to_fops = {
	.write	= plug_yield_to_write,
};
#endif

static void __init plug_server_debugfs_init(void)
{
	struct dentry *sched = debugfs_lookup("sched", NULL), *dir;
	long cpu;

	if (IS_ERR_OR_NULL(sched))
		return;
	dir = debugfs_create_dir("plug_server", sched);
	for_each_possible_cpu(cpu) {
		struct dentry *d_cpu;
		char buf[32];

		snprintf(buf, sizeof(buf), "cpu%ld", cpu);
		d_cpu = debugfs_create_dir(buf, dir);
		/* The CPU in the low 16 bits, the parameter (1: period) above. */
		debugfs_create_file("runtime", 0644, d_cpu, (void *)cpu, &plug_server_fops);
		debugfs_create_file("period", 0644, d_cpu, (void *)(cpu | 1L << 16),
				    &plug_server_fops);
	}
	debugfs_create_file("plug_released", 0444, sched, NULL, &plug_released_fops);
	debugfs_create_file("plug_tracked", 0444, sched, NULL, &plug_tracked_fops);
	debugfs_create_atomic_t("plug_reliefs", 0444, sched, &plugsched_nr_reliefs);
#ifdef CONFIG_SMP
	debugfs_create_file("plug_util", 0444, sched, NULL, &plug_util_fops);
	debugfs_create_file("plug_balance", 0444, sched, NULL, &plug_balance_fops);
#endif
#ifdef CONFIG_PLUGSCHED_DEBUG
	debugfs_create_file("plug_break", 0600, sched, NULL, &plug_break_fops);
	debugfs_create_file("plug_yield_to", 0200, sched, NULL, &plug_yield_to_fops);
	debugfs_create_atomic_t("plug_tick_dequeued", 0444, sched, &plugsched_tick_dequeued);
	debugfs_create_atomic_t("plug_stale_tags", 0444, sched, &plugsched_stale_tags);
#endif
	dput(sched);
}
#else
static inline void plug_server_debugfs_init(void) { }
#endif

static int __init plugsched_late_init(void)
{
	struct kobject *kobj;
	int ret = 0;

	kobj = kobject_create_and_add("plugsched", kernel_kobj);
	if (!kobj || sysfs_create_group(kobj, &plugsched_attr_group))
		pr_warn("plugsched: cannot create /sys/kernel/plugsched\n");
	if (!proc_create_single("scheduler", 0444, NULL, plugsched_proc_show))
		pr_warn("plugsched: cannot create /proc/scheduler\n");

	plugsched_switch_late_init();
	plugsched_sysrq_init();
	plug_server_debugfs_init();
	plugsched_knob_entry(&plugsched_core_table[0], &plugsched_watchdog_knob);
	plugsched_core_table[0].proc_handler = plugsched_watchdog_knob_handler;
	plugsched_knob_entry(&plugsched_core_table[1], &plugsched_relief_knob);
	if (!register_sysctl("kernel", plugsched_core_table))
		pr_warn("plugsched: cannot register plugsched_watchdog_ms and plugsched_relief_ms\n");

	mutex_lock(&plugsched_switch_mutex);
	plugsched_sysctl_ready = true;
	if (plugsched_cur_ops) {
		ret = plugsched_register_knobs(plugsched_cur_ops);
		plugsched_watchdog_start();
	}
	mutex_unlock(&plugsched_switch_mutex);
	if (ret)
		pr_warn("plugsched: cannot register the knobs of %s: %d\n",
			plugsched_cur_ops->name, ret);
	return 0;
}
late_initcall(plugsched_late_init);
