// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl_spin: the other CPUs of the text-poke benchmark (poke-bench.py).
 *
 * One kthread per online CPU, bound to it, at nice 19 (so that the CPU
 * that writes the control file runs the write, not the loop), calls
 * ddctl_spin_site() in a tight loop while the parameter "run" is 1.
 * ddctl_spin_site() holds one dynamic debug site, made with pr_debug()'s
 * own pair DEFINE_DYNAMIC_DEBUG_METADATA() + DYNAMIC_DEBUG_BRANCH(): the
 * same static branch as a pr_debug(), so "module ddctl_spin +p" toggles
 * it with the benchmark's set, but its enabled branch counts instead of
 * printing, so that turning it on neither floods the console nor changes
 * what a call costs.  Every call adds one to the per-CPU tpb_spin_calls of
 * the measurement patch (tests/vm/bench/textpoke-timing.patch), which
 * snapshots them at the start and the end of each control-file write:
 * the calls per millisecond of every CPU during the transaction.
 * Bench-only: it needs a kernel with that patch.
 */
#include <linux/cpu.h>
#include <linux/dynamic_debug.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/tpbench.h>

static int run;
module_param(run, int, 0644);
MODULE_PARM_DESC(run, "1: the kthreads call the site in a loop; 0: they sleep");

static DEFINE_PER_CPU(unsigned long, ddctl_spin_enabled);
static struct task_struct *ddctl_spin_threads[NR_CPUS];

static noinline void ddctl_spin_site(unsigned int cpu)
{
	DEFINE_DYNAMIC_DEBUG_METADATA(descriptor, "ddctl_spin: cpu %u\n");

	if (DYNAMIC_DEBUG_BRANCH(descriptor))
		this_cpu_inc(ddctl_spin_enabled);
	this_cpu_inc(tpb_spin_calls);
}

static int ddctl_spin_fn(void *data)
{
	unsigned int cpu = (unsigned long)data;
	int i;

	set_user_nice(current, MAX_NICE);
	while (!kthread_should_stop()) {
		if (!READ_ONCE(run)) {
			schedule_timeout_interruptible(HZ / 50);
			continue;
		}
		for (i = 0; i < 256; i++)
			ddctl_spin_site(cpu);
		cond_resched();
	}
	return 0;
}

static void ddctl_spin_stop(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (ddctl_spin_threads[cpu])
			kthread_stop(ddctl_spin_threads[cpu]);
}

static int __init ddctl_spin_init(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		struct task_struct *t;

		t = kthread_create_on_cpu(ddctl_spin_fn, (void *)(unsigned long)cpu,
					  cpu, "ddctl_spin/%u");
		if (IS_ERR(t)) {
			ddctl_spin_stop();
			return PTR_ERR(t);
		}
		ddctl_spin_threads[cpu] = t;
		wake_up_process(t);
	}
	return 0;
}

static void __exit ddctl_spin_exit(void)
{
	ddctl_spin_stop();
}

module_init(ddctl_spin_init);
module_exit(ddctl_spin_exit);
MODULE_DESCRIPTION("ddctl text-poke benchmark: a dynamic debug site called in a loop on every CPU");
MODULE_LICENSE("GPL");
