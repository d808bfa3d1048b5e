// SPDX-License-Identifier: GPL-2.0
/*
 * plugsched: the plug server, a deadline server per CPU for plugged tasks.
 *
 * What the fair server is to fair tasks: it runs plugged tasks starved by
 * RT or deadline tasks, 50 ms every second by default, deferred until they
 * did starve; /sys/kernel/debug/sched/plug_server/cpuN/{runtime,period}
 * tune it. Its deadline bandwidth is reserved only while a policy runs.
 *
 * See Documentation/scheduler/plugsched.rst.
 */
#include <linux/plugsched.h>

#include "plugsched_internal.h"

/*
 * Each CPU's plug server parameters as set (runtime 0: off), and whether
 * a policy is active, so that the server holds them: written under the
 * CPU's rq lock.
 */
struct plugsched_server_conf {
	u64	runtime;
	u64	period;
	bool	on;
};

static DEFINE_PER_CPU(struct plugsched_server_conf, plugsched_server_conf);

void plugsched_server_init(struct rq *rq)
{
	init_dl_entity(&rq->plug_server);
	dl_server_init(&rq->plug_server, rq, plugsched_server_pick_task);
	per_cpu(plugsched_server_conf, cpu_of(rq)) = (struct plugsched_server_conf) {
		.runtime = 50 * NSEC_PER_MSEC, .period = NSEC_PER_SEC,
	};
}

/*
 * The CPU is dying: nothing is queued on it any more. Only an active
 * server is stopped: stopping one that its own empty pick stopped already
 * takes its bandwidth off the running bandwidth a second time (6.12's
 * dl_server_stop() does not check; make torture hit the underflow WARN in
 * sub_running_bw() on CPU hotplug).
 */
void plugsched_server_stop(struct rq *rq)
{
	if (dl_server_active(&rq->plug_server))
		dl_server_stop(&rq->plug_server);
}

/*
 * Give @rq's plug server (@rq online and locked) its runtime and period:
 * set up as dl_server_start() does the first time, then the runtime in
 * the period of the root domain's deadline bandwidth reserved (runtime 0
 * releases it), as the fair server's debugfs files do. 0, or -EBUSY if
 * the root domain has not that much left (the server keeps what it had).
 */
static int plugsched_server_apply(struct rq *rq)
{
	struct plugsched_server_conf *conf = per_cpu_ptr(&plugsched_server_conf, cpu_of(rq));
	struct sched_dl_entity *dl_se = &rq->plug_server;
	int ret;

	lockdep_assert_rq_held(rq);
	update_rq_clock(rq);
	if (!dl_se->dl_server) {
		/* 50 ms a second, reserved without a check: fixed below. */
		dl_server_start(dl_se);
		plugsched_server_stop(rq);
	}
	if (dl_se->dl_runtime == conf->runtime && dl_se->dl_period == conf->period)
		return 0;
	plugsched_server_stop(rq);
	ret = dl_server_apply_params(dl_se, conf->runtime, conf->period, 0);
	if (rq->plug.nr_running)
		dl_server_start(dl_se);
	return ret;
}

static void plugsched_server_release(struct rq *rq)
{
	struct sched_dl_entity *dl_se = &rq->plug_server;

	if (!dl_se->dl_server || !dl_se->dl_runtime)
		return;
	update_rq_clock(rq);
	plugsched_server_stop(rq);
	dl_server_apply_params(dl_se, 0, dl_se->dl_period, 0);
}

/*
 * The plug servers hold deadline bandwidth, as the fair servers do, only
 * while a policy is active: a policy started at run time reserves it on
 * every online CPU first, or does not start; the return to mainline gives
 * it back. (A policy chosen at boot reserves it as the fair class does,
 * on a CPU's first plugged task; a CPU offline while the servers are
 * released or reserved keeps what it had until the next switch.)
 */
static void plugsched_servers_off(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		guard(rq_lock_irqsave)(rq);
		per_cpu(plugsched_server_conf, cpu).on = false;
		if (cpu_online(cpu))
			plugsched_server_release(rq);
	}
}

/**
 * plugsched_servers_reserve - the plug servers' bandwidth, for a policy to start
 *
 * Called with the CPU hotplug lock held for read, the plug class empty.
 *
 * Return: 0, or -EBUSY if one online CPU's root domain lacks the
 * bandwidth (nothing is reserved then).
 */
int plugsched_servers_reserve(void)
{
	int cpu, ret = 0;

	lockdep_assert_cpus_held();
	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		scoped_guard (rq_lock_irqsave, rq) {
			per_cpu(plugsched_server_conf, cpu).on = true;
			if (cpu_online(cpu))
				ret = plugsched_server_apply(rq);
		}
		if (ret) {
			pr_warn("plugsched: CPU %d's root domain has no deadline bandwidth left for the plug server\n",
				cpu);
			break;
		}
	}
	if (ret)
		plugsched_servers_off();
	return ret;
}

/**
 * plugsched_servers_release - mainline again: the plug servers' bandwidth back
 *
 * Called with the CPU hotplug lock held for read, the plug class empty.
 */
void plugsched_servers_release(void)
{
	lockdep_assert_cpus_held();
	plugsched_servers_off();
}

/* A policy is active from boot: its servers hold their bandwidth. */
void __init plugsched_servers_on_at_boot(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		per_cpu(plugsched_server_conf, cpu).on = true;
}

/**
 * plugsched_server_params - CPU @cpu's plug server runtime and period, as set
 * @cpu:	a possible CPU
 * @period:	false: the runtime; true: the period (ns)
 *
 * Return: the value.
 */
u64 plugsched_server_params(int cpu, bool period)
{
	struct plugsched_server_conf *conf = per_cpu_ptr(&plugsched_server_conf, cpu);

	return period ? READ_ONCE(conf->period) : READ_ONCE(conf->runtime);
}

/**
 * plugsched_server_set - set @rq's plug server runtime and period
 * @rq:		an online CPU's runqueue, locked
 * @runtime:	ns (0: off), at most @period
 * @period:	ns
 *
 * Under mainline the values wait for the next policy (the servers hold
 * bandwidth only while one is active); a policy's server takes them at
 * once.
 *
 * Return: 0, or -EBUSY if the root domain lacks the bandwidth (nothing
 * changed then).
 */
int plugsched_server_set(struct rq *rq, u64 runtime, u64 period)
{
	struct plugsched_server_conf *conf = per_cpu_ptr(&plugsched_server_conf, cpu_of(rq));
	struct plugsched_server_conf old = *conf;
	int ret;

	lockdep_assert_rq_held(rq);
	WRITE_ONCE(conf->runtime, runtime);
	WRITE_ONCE(conf->period, period);
	ret = conf->on ? plugsched_server_apply(rq) : 0;
	if (ret) {
		WRITE_ONCE(conf->runtime, old.runtime);
		WRITE_ONCE(conf->period, old.period);
	}
	return ret;
}

/* A new root domain: the server's bandwidth moves with the CPU. */
void plugsched_server_attach_root(struct rq *rq)
{
	if (rq->plug_server.dl_server)
		__dl_server_attach_root(&rq->plug_server, rq);
}
