// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl follow: apply a set for the duration of a session, stream the
 * kernel log lines its callsites print (attributed to each site through
 * the decoration the session adds), count them per site, and put every
 * site back on exit, on every signal that would end it and on errors. ddctl run
 * runs a command inside such a session; ddctl sessions --restore puts
 * back the sites of a session whose process is gone.
 */
#include <errno.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ops/attribute.h"
#include "ops/commit.h"
#include "ops/follow.h"
#include "ops/guard.h"
#include "ops/input.h"
#include "ops/modload.h"
#include "ops/state.h"
#include "output/json.h"
#include "output/message.h"

/* The decoration a session adds, less what the kernel lacks (6.1: no 's'). */
#define DECORATION (DDCTL_FLAG_MODNAME | DDCTL_FLAG_FUNCNAME | \
		    DDCTL_FLAG_SOURCENAME | DDCTL_FLAG_LINENO)
#define decoration(f) (DECORATION & ddctl_get_query_flags((f)->cli->ctx))
#define STATS_ROWS 20

static volatile sig_atomic_t got_signal, child_done;

/*
 * The signals a session handles: every one whose default ends the process
 * (it stops and restores; SIGPIPE is ignored: a closed output is EPIPE),
 * and SIGCHLD for run's command.
 */
static const int session_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
	SIGPROF, SIGIO, SIGPWR, SIGXCPU, SIGXFSZ, SIGPIPE, SIGCHLD,
};
#define SESSION_SIGNALS (sizeof(session_signals) / sizeof(session_signals[0]))

static void on_signal(int sig)
{
	if (sig == SIGCHLD)
		child_done = 1;
	else
		got_signal = sig;
}

struct follow {
	struct cli *cli;
	const struct cli_opts *opts;
	struct ddctl_session *session;
	struct ddctl_table *sites;
	struct ddctl_kmsg_index *index;
	struct ddctl_kmsg *kmsg;
	struct ddctl_monitor *monitor;
	struct ddctl_uevent_listener *uevents; /* modules loaded meanwhile */
	struct ddctl_queryset *user; /* the user's set, aliases resolved */
	struct cli_modload_lines kept; /* lines no site claimed, until a module loads */
	const char *cmdline; /* for the record */
	bool replaying;
	unsigned long long *counts; /* per followed site */
	unsigned long long lines, other, lost;
	FILE *out;
	bool colour, changed, out_error;
	/* the filters: --device, --grep, --since (usec since boot), -n */
	regex_t grep;
	bool have_grep;
	unsigned long long since, max_lines, shown;
	int timestamps; /* 0 none, 1 monotonic, 2 realtime */
	long long boot_usec; /* realtime: the wall clock at boot */
	int wmod, wfunc;
	sigset_t waitmask; /* the mask outside follow: signals arrive in ppoll() */
	pid_t child;
	bool reaped;
	int child_status;
	struct session_guard guard; /* --for, --max-rate, --max-lines */
};

static void columns_init(struct follow *f)
{
	size_t i, n = ddctl_table_get_count(f->sites);

	f->wmod = 6;
	f->wfunc = 8;
	for (i = 0; i < n; i++) {
		const struct ddctl_site *s = ddctl_table_get_site(f->sites, i);
		int m = (int)strlen(ddctl_site_get_module(s));
		int fl = snprintf(NULL, 0, "%s:%u", ddctl_site_get_function(s),
				  ddctl_site_get_line(s));

		f->wmod = m > f->wmod ? m : f->wmod;
		f->wfunc = fl > f->wfunc ? fl : f->wfunc;
	}
	f->wmod = f->wmod > 24 ? 24 : f->wmod;
	f->wfunc = f->wfunc > 40 ? 40 : f->wfunc;
}

static void print_json_line(struct follow *f, const struct ddctl_kmsg_record *rec,
			    const struct ddctl_site *site, const char *message)
{
	struct json_writer w;

	json_init(&w, f->out);
	json_begin_object(&w);
	json_key(&w, "seq");
	json_uint(&w, rec->seq);
	json_key(&w, "usec");
	json_uint(&w, rec->usec);
	if (site) {
		json_site(&w, site);
	} else {
		json_key(&w, "file");
		json_null(&w);
		json_key(&w, "line");
		json_null(&w);
		json_key(&w, "module");
		json_null(&w);
		json_key(&w, "function");
		json_null(&w);
	}
	json_key(&w, "device");
	if (rec->device)
		json_string(&w, rec->device);
	else
		json_null(&w);
	json_key(&w, "message");
	json_string(&w, message);
	json_end_object(&w);
}

/* --timestamps: "[   12.345678] " since boot, or the wall clock. */
static void print_time(struct follow *f, const struct ddctl_kmsg_record *rec)
{
	if (f->timestamps == 1) {
		fprintf(f->out, "[%5llu.%06llu] ", rec->usec / 1000000, rec->usec % 1000000);
	} else if (f->timestamps == 2) {
		long long us = f->boot_usec + (long long)rec->usec;
		time_t t = (time_t)(us / 1000000);
		struct tm tm;
		char s[64];

		localtime_r(&t, &tm);
		strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
		fprintf(f->out, "%s.%06lld", s, us % 1000000);
		strftime(s, sizeof(s), "%z", &tm);
		fprintf(f->out, "%s ", s);
	}
}

static void print_line(struct follow *f, const struct ddctl_kmsg_record *rec,
		       const struct ddctl_site *site, const char *message)
{
	char fl[160];

	if (f->cli->json) {
		print_json_line(f, rec, site, message);
	} else if (!site) {
		print_time(f, rec);
		fprintf(f->out, "%-*s %s%s%-*s %s\n", f->wmod, "-",
			rec->device ? rec->device : "", rec->device ? " " : "",
			f->wfunc, "-", message);
	} else {
		print_time(f, rec);
		snprintf(fl, sizeof(fl), "%s:%u", ddctl_site_get_function(site),
			 ddctl_site_get_line(site));
		/* the device, when the record names one, after the module */
		fprintf(f->out, "%s%-*s%s %s%s%s%-*s%s %s\n", f->colour ? "\033[32m" : "",
			f->wmod, ddctl_site_get_module(site), f->colour ? "\033[0m" : "",
			rec->device ? rec->device : "", rec->device ? " " : "",
			f->colour ? "\033[34m" : "", f->wfunc, fl,
			f->colour ? "\033[0m" : "", message);
	}
	if (fflush(f->out) == EOF || ferror(f->out))
		f->out_error = true;
}

/*
 * The first (or, after the driver's name, the second) word of a
 * dev_printk() message, "e1000 0000:00:03.0: text", is @dev (a trailing
 * ':' aside)?
 */
static bool message_names(const char *msg, const char *dev)
{
	size_t n = strlen(dev);
	int word;

	for (word = 0; word < 2 && *msg; word++) {
		size_t len = strcspn(msg, " ");

		if (len && msg[len - 1] == ':')
			len--;
		if (len == n && !strncmp(msg, dev, n))
			return true;
		msg += strcspn(msg, " ");
		msg += strspn(msg, " ");
	}
	return false;
}

/*
 * --device DEV: the record's DEVICE= value ("+pci:0000:00:03.0", "n2"),
 * the name in it ("0000:00:03.0"), or the device name the message starts
 * with. --grep: the message. --since: the record's time.
 */
static bool wanted(const struct follow *f, const struct ddctl_kmsg_record *rec,
		   const char *message)
{
	const char *dev = f->opts->device, *d = rec->device;

	if (f->opts->since && rec->usec < f->since)
		return false;
	if (dev && !(d && (!strcmp(d, dev) ||
			   (d[0] == '+' && strchr(d, ':') && !strcmp(strchr(d, ':') + 1, dev)))) &&
	    !message_names(message, dev))
		return false;
	return !f->have_grep || regexec(&f->grep, message, 0, NULL, 0) == 0;
}

static void handle_record(struct follow *f, const struct ddctl_kmsg_record *rec)
{
	struct ddctl_kmsg_prefix p;
	const char *message = NULL;
	size_t site;

	if (f->max_lines && f->shown >= f->max_lines)
		return;
	if (rec->facility == 0 && rec->level == 7 &&
	    ((ddctl_kmsg_prefix_parse(rec->text, decoration(f) | DDCTL_FLAG_TID, &p) == 0 &&
	      (p.flags & decoration(f)) == decoration(f) &&
	      ddctl_kmsg_index_find(f->index, &p, &site) > 0 && (message = p.message)) ||
	     attribute_by_text(f->index, decoration(f), rec->text, &site, &message))) {
		/* every line of a followed site counts, shown or not */
		cli_guard_line(&f->guard, rec->usec);
		if (!wanted(f, rec, message))
			return;
		if (f->replaying && f->other)
			f->other--; /* counted when it was read */
		f->shown++;
		f->counts[site]++;
		f->lines++;
		f->changed = true;
		if (!f->opts->top)
			print_line(f, rec, ddctl_table_get_site(f->sites, site),
				   f->opts->raw ? rec->text : message);
		return;
	}
	if (f->replaying)
		return;
	if (f->uevents && !f->opts->all && rec->facility == 0 && rec->level == 7)
		cli_modload_keep(&f->kept, rec);
	if (!wanted(f, rec, rec->text))
		return;
	f->other++;
	f->shown += f->opts->all;
	if (f->opts->all && !f->opts->top)
		print_line(f, rec, NULL, rec->text);
}

static int cmp_count(const void *pa, const void *pb, void *data)
{
	const unsigned long long *c = data;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	if (c[a] != c[b])
		return c[a] < c[b] ? 1 : -1;
	return (a > b) - (a < b);
}

/* The followed sites that printed, most lines first. */
static size_t *sorted_sites(struct follow *f, size_t *n)
{
	size_t i, total = ddctl_table_get_count(f->sites);
	size_t *idx = malloc((total + 1) * sizeof(*idx));

	*n = 0;
	if (!idx)
		return NULL;
	for (i = 0; i < total; i++)
		if (f->counts[i])
			idx[(*n)++] = i;
	qsort_r(idx, *n, sizeof(*idx), cmp_count, f->counts);
	return idx;
}

static void print_stats(struct follow *f, FILE *to, size_t max)
{
	size_t i, n;
	size_t *idx = sorted_sites(f, &n);

	if (!idx)
		return;
	fprintf(to, "%llu line%s from %zu of %zu followed callsite%s", f->lines,
		f->lines == 1 ? "" : "s", n, ddctl_table_get_count(f->sites),
		ddctl_table_get_count(f->sites) == 1 ? "" : "s");
	if (f->lost)
		fprintf(to, ", %llu record%s lost", f->lost, f->lost == 1 ? "" : "s");
	fputs(n ? ":\n" : "\n", to);
	for (i = 0; i < n && (!max || i < max); i++) {
		const struct ddctl_site *s = ddctl_table_get_site(f->sites, idx[i]);

		fprintf(to, "%8llu  %s:%u [%s]%s\n", f->counts[idx[i]],
			ddctl_site_get_file(s), ddctl_site_get_line(s),
			ddctl_site_get_module(s), ddctl_site_get_function(s));
	}
	if (max && n > max)
		fprintf(to, "     ...  %zu more\n", n - max);
	free(idx);
}

static void print_stats_json(struct follow *f)
{
	struct json_writer w;
	size_t i, n;
	size_t *idx = sorted_sites(f, &n);

	if (!idx)
		return;
	json_init(&w, f->out);
	json_begin_object(&w);
	json_key(&w, "summary");
	json_begin_object(&w);
	json_key(&w, "lines");
	json_uint(&w, f->lines);
	json_key(&w, "other");
	json_uint(&w, f->other);
	json_key(&w, "lost");
	json_uint(&w, f->lost);
	json_key(&w, "followed");
	json_uint(&w, ddctl_table_get_count(f->sites));
	json_key(&w, "end");
	if (cli_guard_end_name(&f->guard))
		json_string(&w, cli_guard_end_name(&f->guard));
	else
		json_null(&w);
	json_key(&w, "sites");
	json_begin_array(&w);
	for (i = 0; i < n; i++) {
		json_begin_object(&w);
		json_site(&w, ddctl_table_get_site(f->sites, idx[i]));
		json_key(&w, "count");
		json_uint(&w, f->counts[idx[i]]);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
	json_end_object(&w);
	fflush(f->out);
	free(idx);
}

/* --top: the table, in place on a terminal. */
static void refresh_top(struct follow *f)
{
	if (!f->changed)
		return;
	f->changed = false;
	if (f->colour)
		fputs("\033[H\033[J", f->out);
	print_stats(f, f->out, f->colour ? STATS_ROWS : 0);
	if (!f->colour)
		fputc('\n', f->out);
	if (fflush(f->out) == EOF)
		f->out_error = true;
}

/*
 * Another writer (netlink notification): does it touch our sites? The
 * notification carries the set: predict it on the followed sites (with
 * the flags the session gave them) instead of reading the whole table
 * back, which takes seconds with tens of thousands of sites under TCG.
 * The session's own commit predicts no change.
 */
static int on_event(const struct ddctl_event *ev, void *data)
{
	struct follow *f = data;
	struct ddctl_queryset *set = NULL;
	struct ddctl_plan *plan = NULL;
	size_t moved = 0;

	if (!f->sites)
		return 0;
	if (!ev->queries) {
		/* the kernel left out a large set's queries: which sites? */
		if (ev->sites_changed)
			cli_error(f->cli, "another writer changed %u callsites (too many queries for the kernel to say which): the followed lines may no longer be attributed\n",
				  ev->sites_changed);
		return 0;
	}
	if (ddctl_queryset_new(f->cli->ctx, &set) < 0)
		return 0;
	if (ddctl_queryset_parse(set, ev->queries, 0) == 0 &&
	    ddctl_plan_new(set, f->sites, &plan) == 0)
		moved = ddctl_plan_get_change_count(plan);
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	if (moved)
		cli_error(f->cli, "another writer changed %zu of the followed callsites (%.*s): their lines may no longer be attributed\n",
			  moved, (int)strcspn(ev->queries, "\n"), ev->queries);
	return 0;
}

static long long now_sec(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec;
}

static long long clock_usec(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

/*
 * --since TIME: seconds since boot as the log shows them ("12.5"), or a
 * time ago with a unit ("30s", "500ms", "5min", "2h"); the log's clock is
 * CLOCK_MONOTONIC's.
 */
static int parse_since(const char *s, unsigned long long *usec)
{
	static const struct { const char *unit; double usec; } units[] = {
		{ "us", 1 }, { "ms", 1e3 }, { "s", 1e6 }, { "sec", 1e6 }, { "m", 60e6 },
		{ "min", 60e6 }, { "h", 3600e6 },
	};
	double v, now;
	char *end;
	size_t i;

	if (!*s || strspn(s, "0123456789.") == 0)
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || v < 0 || v > 1e12)
		return -EINVAL;
	if (!*end) {
		*usec = (unsigned long long)(v * 1e6 + 0.5);
		return 0;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit))
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		return -EINVAL;
	now = (double)clock_usec(CLOCK_MONOTONIC);
	v *= units[i].usec;
	*usec = v >= now ? 0 : (unsigned long long)(now - v);
	return 0;
}

/* The filters and the timestamps: a usage error before anything is done. */
static int filters_init(struct follow *f)
{
	const struct cli_opts *o = f->opts;
	char *end;
	int r;

	if (o->lines) {
		errno = 0;
		f->max_lines = strtoull(o->lines, &end, 10);
		if (!*o->lines || *end || errno || o->lines[0] == '-' || !f->max_lines) {
			cli_error(f->cli, "-n, --lines: a number of lines (1 or more), not '%s'\n", o->lines);
			return EXIT_USAGE;
		}
	}
	if (o->since && parse_since(o->since, &f->since) < 0) {
		cli_error(f->cli, "--since: seconds since boot (12.5) or a time ago (30s, 500ms, 5min, 2h), not '%s'\n",
			  o->since);
		return EXIT_USAGE;
	}
	if (o->device && !*o->device) {
		cli_error(f->cli, "--device: a device, e.g. +pci:0000:00:03.0 or 0000:00:03.0\n");
		return EXIT_USAGE;
	}
	if (o->timestamps) {
		if (!*o->timestamps || !strcmp(o->timestamps, "monotonic")) {
			f->timestamps = 1;
		} else if (!strcmp(o->timestamps, "realtime")) {
			f->timestamps = 2;
			f->boot_usec = clock_usec(CLOCK_REALTIME) - clock_usec(CLOCK_MONOTONIC);
		} else {
			cli_error(f->cli, "--timestamps: monotonic or realtime, not '%s'\n", o->timestamps);
			return EXIT_USAGE;
		}
	}
	if (o->grep) {
		r = regcomp(&f->grep, o->grep, REG_EXTENDED | REG_NOSUB);
		if (r) {
			char msg[128];

			regerror(r, &f->grep, msg, sizeof(msg));
			cli_error(f->cli, "--grep: not an extended regular expression: %s: %s\n",
				  o->grep, msg);
			return EXIT_USAGE;
		}
		f->have_grep = true;
	}
	return EXIT_OK;
}

/* Read what the kernel log has; -ENODATA at the end of a stand-in. */
static int drain(struct follow *f)
{
	struct ddctl_kmsg_record rec;
	int r;

	while (!f->out_error) {
		if ((f->max_lines && f->shown >= f->max_lines) || f->guard.end)
			return -ENODATA; /* -n N or the guard: the session's end */
		r = ddctl_kmsg_read(f->kmsg, &rec);
		if (r == 1)
			handle_record(f, &rec);
		else if (r == -EPIPE)
			f->lost++;
		else if (r != -EBADMSG)
			return r;
	}
	return -EIO;
}

static void replay_record(const struct ddctl_kmsg_record *rec, void *data)
{
	handle_record(data, rec);
}

/*
 * A module loaded: its sites join the followed ones (counts and index
 * grow), and the lines read before, its init's, are looked at again.
 */
static void on_module_load(struct follow *f)
{
	size_t added, n;
	unsigned long long *c;

	if (cli_modload_handle(f->cli, f->uevents, f->session, f->user, decoration(f),
			       f->cmdline, &added) < 0 || !added)
		return;
	f->sites = ddctl_session_get_sites(f->session);
	n = ddctl_table_get_count(f->sites);
	c = realloc(f->counts, (n + 1) * sizeof(*c));
	if (c) {
		memset(c + n - added, 0, (added + 1) * sizeof(*c));
		f->counts = c;
	}
	ddctl_kmsg_index_free(f->index);
	f->index = NULL;
	if (!c || ddctl_kmsg_index_new(f->sites, &f->index) < 0)
		f->out_error = true; /* out of memory: the session ends, restored */
	columns_init(f);
	f->replaying = true;
	if (!f->out_error)
		cli_modload_replay(&f->kept, replay_record, f);
	f->replaying = false;
}

/* The module loads the kernel announced already (run: the command's, before it ended). */
static void modules_pending(struct follow *f)
{
	struct pollfd p = { 0 };

	p.fd = f->uevents ? ddctl_uevent_listener_get_fd(f->uevents) : -1;
	p.events = POLLIN;
	while (f->uevents && !f->out_error && poll(&p, 1, 0) > 0 && (p.revents & POLLIN))
		on_module_load(f);
}

static int follow_loop(struct follow *f)
{
	struct pollfd pfd[3] = { { ddctl_kmsg_get_fd(f->kmsg), POLLIN, 0 } };
	nfds_t n = 1, mon = 0, uev = 0;
	int r = 0, timeout = f->opts->top || f->opts->stats ? 1000 : -1;
	struct timespec ts = { .tv_sec = 1 }, wait;
	long long last = now_sec();

	if (f->monitor) {
		pfd[n].fd = ddctl_monitor_get_fd(f->monitor);
		pfd[n].events = POLLIN;
		mon = n++;
	}
	if (f->uevents) {
		pfd[n].fd = ddctl_uevent_listener_get_fd(f->uevents);
		pfd[n].events = POLLIN;
		uev = n++;
	}
	while (!got_signal && !f->out_error) {
		if (f->child && child_done) {
			if (waitpid(f->child, &f->child_status, WNOHANG) == f->child) {
				f->reaped = true;
				break;
			}
			child_done = 0;
		}
		r = drain(f);
		if (r < 0)
			break;
		/* signals are blocked but while waiting: none is missed */
		r = ppoll(pfd, n, cli_guard_wait(&f->guard, timeout < 0 ? NULL : &ts, &wait),
			  &f->waitmask);
		if (r < 0 && errno != EINTR) {
			r = -errno;
			break;
		}
		if (cli_guard_expired(&f->guard)) {
			r = 0;
			break;
		}
		if (mon && r > 0 && pfd[mon].revents)
			ddctl_monitor_read(f->monitor, on_event, f);
		if (uev && r > 0 && pfd[uev].revents)
			on_module_load(f);
		/* --top: at most once a second; --stats: every 5 seconds */
		if ((f->opts->top || f->opts->stats) && f->changed &&
		    now_sec() - last >= (f->opts->top ? 1 : 5)) {
			last = now_sec();
			if (f->opts->top) {
				refresh_top(f);
			} else {
				f->changed = false;
				print_stats(f, stderr, STATS_ROWS);
			}
		}
		r = 0;
	}
	if (f->child && !got_signal) { /* what the command printed last */
		r = drain(f);
		modules_pending(f);
	}
	if (r == -ENODATA || r == 0)
		return 0;
	if (f->out_error) {
		cli_error(f->cli, "cannot write the output: %s\n", strerror(errno));
		return -EIO;
	}
	cli_error(f->cli, "reading the kernel log: %s\n", strerror(-r));
	return r;
}

/* Put the session's sites back; the record goes once that worked. */
int cli_session_restore(struct cli *cli, struct ddctl_session *s)
{
	struct ddctl_queryset *set = NULL;
	struct ddctl_table *now = NULL;
	struct cli_commit how = { .quiet = true };
	bool locked = cli_lock(cli);
	size_t skipped = 0, n;
	int r;

	/* no module loads with the session's queries from now on */
	r = ddctl_session_remove_load_config(s);
	if (r < 0)
		cli_error(cli, "cannot remove %s: %s\n", ddctl_session_get_load_config_path(s),
			  strerror(-r));
	else if (ddctl_session_get_load_config_path(s))
		cli_modload_udev_reload(cli);
	r = ddctl_table_read(cli->ctx, &now);
	if (!r)
		r = ddctl_session_get_restore(s, now, &set, &skipped);
	if (!r)
		r = cli_modload_restore(cli, s, now, set);
	if (!r) {
		how.table = now;
		cli_set_commit(cli, set, &how);
		r = how.error;
	}
	if (locked)
		cli_unlock();
	n = set ? ddctl_queryset_get_count(set) : 0;
	ddctl_queryset_unref(set);
	ddctl_table_unref(now);
	if (r < 0) {
		cli_error(cli, "could not restore the callsites: %s; the session record %s stays: run 'ddctl sessions --restore'\n",
			  strerror(-r), ddctl_session_get_path(s) ? ddctl_session_get_path(s) : "");
		return EXIT_REFUSED;
	}
	if (skipped)
		cli_error(cli, "%zu callsite%s changed by another writer during the session %s left as %s\n",
			  skipped, skipped == 1 ? "" : "s", skipped == 1 ? "was" : "were",
			  skipped == 1 ? "it is" : "they are");
	if (n)
		cli_note(cli, "restored the callsites (%zu quer%s, one transaction)\n", n,
		     n == 1 ? "y" : "ies");
	else
		cli_note(cli, "nothing to restore\n");
	r = ddctl_session_remove(s);
	if (r < 0)
		cli_error(cli, "cannot remove the session record: %s\n", strerror(-r));
	return EXIT_OK;
}

static int start_child(struct follow *f, char **command)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		size_t i;

		sigprocmask(SIG_SETMASK, &f->waitmask, NULL);
		for (i = 0; i < SESSION_SIGNALS; i++)
			signal(session_signals[i], SIG_DFL);
		execvp(command[0], command);
		fprintf(stderr, "ddctl: cannot run %s: %s\n", command[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	f->child = pid;
	return 0;
}

/* "ddctl NAME QUERY... [-- COMMAND...]", for the session record. */
static char *command_line(const char *name, int argc, char **argv, char **command)
{
	size_t len = strlen(name) + 12;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	for (i = 0; command && command[i]; i++)
		len += strlen(command[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, "ddctl ");
	strcat(s, name);
	for (i = 0; i < argc; i++)
		strcat(strcat(s, " "), argv[i]);
	if (command)
		strcat(s, " --");
	for (i = 0; command && command[i]; i++)
		strcat(strcat(s, " "), command[i]);
	return s;
}

/*
 * The queries of follow and run: -f FILE (also --file) or words (the
 * dispatcher and run have checked that there are some).
 */
static int read_set(struct cli *cli, const struct cli_opts *opts, int argc,
		    char **argv, struct ddctl_queryset **set)
{
	const char *file = opts->file;
	char *text;
	int st;

	if (!file && argc == 2 && !strcmp(argv[0], "-f"))
		file = argv[1];
	if (file) {
		st = cli_parse_file(cli, file, set, NULL);
	} else {
		text = cli_join_args(argc, argv);
		if (!text)
			return EXIT_REFUSED;
		st = cli_parse_queries(cli, text, 0, set);
		free(text);
	}
	if (!st && ddctl_queryset_get_count(*set) == 0) {
		cli_error(cli, "no queries given\n");
		st = EXIT_USAGE;
	}
	return st;
}

/*
 * Our handlers for the session, the signals blocked but while ppoll()
 * waits (@waitmask: the mask to wait with); off: unblocked first, so that
 * one that came meanwhile reaches our handler, then the old handlers.
 */
static void signals(bool on, struct sigaction *old, sigset_t *waitmask)
{
	const int *sigs = session_signals;
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block;
	size_t i;

	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	for (i = 0; i < SESSION_SIGNALS; i++)
		sigaddset(&block, sigs[i]);
	if (!on)
		sigprocmask(SIG_SETMASK, waitmask, NULL);
	for (i = 0; i < SESSION_SIGNALS; i++) {
		if (!on) {
			sigaction(sigs[i], &old[i], NULL);
			continue;
		}
		sa.sa_handler = sigs[i] == SIGPIPE ? SIG_IGN : on_signal;
		sigaction(sigs[i], &sa, &old[i]);
	}
	if (on) {
		sigprocmask(SIG_BLOCK, &block, waitmask);
		for (i = 0; i < SESSION_SIGNALS; i++)
			sigdelset(waitmask, sigs[i]);
	}
}

static int open_output(struct follow *f)
{
	struct cli *cli = f->cli;
	const char *output = f->opts->output;

	f->out = stdout;
	if (output && strcmp(output, "-")) {
		f->out = fopen(output, "we");
		if (!f->out) {
			cli_error(cli, "cannot write %s: %s\n", output, strerror(errno));
			return EXIT_REFUSED;
		}
	}
	f->colour = f->out == stdout && !cli->json && cli_color(cli, STDOUT_FILENO);
	return EXIT_OK;
}

/*
 * The record (when the session changes anything), then the session's set;
 * a failed commit is undone through the record. @quiet: no report.
 */
static int session_commit(struct cli *cli, struct ddctl_session *s,
			  struct ddctl_table *now, const char *cmdline, bool quiet)
{
	struct cli_commit how = { .table = now, .quiet = quiet };

	if ((ddctl_session_get_change_count(s) || ddctl_session_get_module_count(s)) &&
	    ddctl_session_save(s, cmdline) < 0) {
		cli_error(cli, "cannot write the session record; nothing was changed\n");
		return EXIT_REFUSED;
	}
	cli_set_commit(cli, ddctl_session_get_set(s), &how);
	if (how.error < 0) {
		/* a refused set changed nothing; a read-back that differs did */
		if (!cli_lib_error())
			cli_error(cli, "cannot apply the set: %s\n", strerror(-how.error));
		cli_session_restore(cli, s);
		return EXIT_REFUSED;
	}
	return EXIT_OK;
}

/* Everything up to the change: the session, the record, the reader. */
static int follow_prepare_locked(struct follow *f, struct ddctl_queryset *set,
				 const char *cmdline);

/* The session applied under ddctl's lock (let go once it is applied). */
static int follow_prepare(struct follow *f, struct ddctl_queryset *set,
			  const char *cmdline)
{
	bool locked = cli_lock(f->cli);
	int st = follow_prepare_locked(f, set, cmdline);

	if (locked)
		cli_unlock();
	return st;
}

static int follow_prepare_locked(struct follow *f, struct ddctl_queryset *set,
				 const char *cmdline)
{
	struct cli *cli = f->cli;
	const struct cli_opts *opts = f->opts;
	struct ddctl_queryset *resolved = NULL;
	struct ddctl_table *now = NULL;
	struct cli_commit how = { 0 };
	int r, st;

	st = cli_read_table(cli, &now);
	if (st)
		return st;
	/* planned on the modules the aliases name, as the commit sends it */
	r = cli_resolve_aliases(cli, set, now, false, &resolved);
	if (!r)
		r = ddctl_session_new(resolved, now, decoration(f), &f->session);
	f->user = resolved;
	if (r < 0) {
		cli_error(cli, "cannot plan the session: %s\n", strerror(-r));
		ddctl_table_unref(now);
		return cli_errno_status(r);
	}
	how.table = now;
	if (cli->check) {
		st = cli_set_commit(cli, ddctl_session_get_set(f->session), &how);
		ddctl_table_unref(now);
		return st ? st : EXIT_HELP;
	}
	f->sites = ddctl_session_get_sites(f->session);
	f->counts = calloc(ddctl_table_get_count(f->sites) + 1, sizeof(*f->counts));
	r = f->counts ? ddctl_kmsg_index_new(f->sites, &f->index) : -ENOMEM;
	/* the reader first: lines printed right after the change are ours */
	if (!r)
		r = ddctl_kmsg_new(cli->ctx, opts->kmsg, opts->since_boot || opts->since ?
				   DDCTL_KMSG_SINCE_BOOT : 0, &f->kmsg);
	if (r < 0) {
		cli_error(cli, "cannot read the kernel log %s: %s; nothing was changed\n",
			  opts->kmsg ? opts->kmsg : "/dev/kmsg", strerror(-r));
		ddctl_table_unref(now);
		return EXIT_REFUSED;
	}
	st = open_output(f);
	/* the guard's clock: a replayed log's old lines are no flood */
	if (!opts->kmsg)
		f->guard.from_usec = (unsigned long long)clock_usec(CLOCK_MONOTONIC);
	ddctl_session_set_until(f->session, cli_guard_start(&f->guard));
	if (!st)
		st = session_commit(cli, f->session, now, cmdline, true);
	ddctl_table_unref(now);
	return st;
}

/* The session: @command (run) or none (follow). */
int cli_follow(struct cli *cli, const struct cli_opts *opts, const char *name,
	       int argc, char **argv, char **command)
{
	struct follow f = { .cli = cli, .opts = opts };
	struct ddctl_queryset *set = NULL;
	struct sigaction old[SESSION_SIGNALS];
	char *cmdline = NULL;
	sigset_t all;
	size_t i;
	int st, r, stop = 0, restored = -1;

	sigemptyset(&all);
	for (i = 0; i < SESSION_SIGNALS; i++)
		sigaddset(&all, session_signals[i]);

	st = filters_init(&f);
	if (!st)
		st = cli_guard_init(cli, opts, true, &f.guard);
	if (!st)
		st = read_set(cli, opts, argc, argv, &set);
	if (st)
		goto out;
	cmdline = command_line(name, argc, argv, command);
	f.cmdline = cmdline;
	got_signal = 0;
	child_done = 0;
	signals(true, old, &f.waitmask);
	/*
	 * Listen before committing: another writer may change a site while
	 * the set is verified (seconds with many sites), and its
	 * notification must not be missed.
	 */
	if (ddctl_monitor_new(cli->ctx, &f.monitor) < 0)
		f.monitor = NULL;
	if (!cli->check)
		cli_modload_open(cli, &f.uevents);
	st = follow_prepare(&f, set, cmdline);
	if (st == EXIT_HELP) { /* --check: printed, nothing written */
		st = EXIT_OK;
		goto restore_signals;
	}
	if (st)
		goto restore_signals;
	columns_init(&f);
	cli_note(cli, "following %zu callsite%s (%zu changed); %s\n",
	     ddctl_table_get_count(f.sites), ddctl_table_get_count(f.sites) == 1 ? "" : "s",
	     ddctl_session_get_change_count(f.session),
	     command ? "running the command" : "Ctrl-C stops and restores them");
	cli_modload_say(cli, f.session);
	if (ddctl_session_get_load_config_path(f.session))
		cli_modload_udev_reload(cli);
	r = command ? start_child(&f, command) : 0;
	if (r < 0)
		cli_error(cli, "cannot start %s: %s\n", command[0], strerror(-r));
	else
		r = follow_loop(&f);
	if (f.guard.end) { /* the guard ended it: restore at once, then report */
		cli_guard_report(cli, &f.guard);
		sigprocmask(SIG_BLOCK, &all, NULL);
		restored = cli_session_restore(cli, f.session);
		if (f.child && !f.reaped)
			cli_note(cli, "%s goes on; waiting for it to end\n", command[0]);
	}
	sigprocmask(SIG_SETMASK, &f.waitmask, NULL); /* our handlers stay */
	while (f.child && !f.reaped) { /* pass signals on, wait for the end */
		if (got_signal) {
			kill(f.child, got_signal);
			stop = got_signal;
			got_signal = 0;
		}
		f.reaped = waitpid(f.child, &f.child_status, 0) == f.child;
		if (!f.reaped && errno != EINTR)
			break;
	}
	stop = stop ? stop : got_signal;
	if (f.max_lines && f.shown >= f.max_lines && !stop)
		cli_note(cli, "%llu line%s shown (-n): stopping\n", f.shown, f.shown == 1 ? "" : "s");
	if (stop && !command)
		cli_note(cli, "%s: stopping\n", strsignal(stop));
	if (cli->json)
		print_stats_json(&f);
	else if (opts->top && !f.colour)
		print_stats(&f, f.out, 0);
	else if (!cli->quiet || f.guard.end == GUARD_RATE) /* the loudest sites */
		print_stats(&f, stderr, opts->top ? 0 : STATS_ROWS);
	/* no signal interrupts the restore: they wait until it is done */
	sigprocmask(SIG_BLOCK, &all, NULL);
	st = restored >= 0 ? restored : cli_session_restore(cli, f.session);
	if (!st && (r < 0 || (f.guard.end == GUARD_RATE && !command)))
		st = EXIT_REFUSED;
	if (command && f.child) {
		int cs = WIFEXITED(f.child_status) ? WEXITSTATUS(f.child_status) :
			 128 + WTERMSIG(f.child_status);

		st = st && !cs ? st : cs;
	} else if (command) {
		st = st ? st : 127;
	}
restore_signals:
	signals(false, old, &f.waitmask);
	ddctl_monitor_free(f.monitor);
	ddctl_uevent_listener_free(f.uevents);
	cli_modload_lines_free(&f.kept);
	ddctl_queryset_unref(f.user);
	ddctl_kmsg_free(f.kmsg);
	ddctl_kmsg_index_free(f.index);
	ddctl_session_free(f.session);
	free(f.counts);
	if (f.out && f.out != stdout)
		fclose(f.out);
out:
	if (f.have_grep)
		regfree(&f.grep);
	free(cmdline);
	ddctl_queryset_unref(set);
	return st;
}

/* set --for: the session planned and applied under the lock, reported. */
static int timed_apply(struct cli *cli, struct ddctl_queryset *set,
		       struct session_guard *g, const char *cmdline,
		       struct ddctl_session **session)
{
	struct ddctl_queryset *resolved = NULL;
	struct ddctl_table *now = NULL;
	struct cli_commit how = { 0 };
	bool locked = cli_lock(cli);
	int r, st = cli_read_table(cli, &now);

	if (!st) {
		r = cli_resolve_aliases(cli, set, now, false, &resolved);
		if (!r)
			r = ddctl_session_new(resolved, now, 0, session);
		if (r < 0) {
			cli_error(cli, "cannot plan the set: %s\n", strerror(-r));
			st = cli_errno_status(r);
		}
	}
	if (!st && cli->check) {
		how.table = now;
		st = cli_set_commit(cli, ddctl_session_get_set(*session), &how);
		st = st ? st : EXIT_HELP;
	} else if (!st) {
		ddctl_session_set_until(*session, cli_guard_start(g));
		st = session_commit(cli, *session, now, cmdline, false);
	}
	if (locked)
		cli_unlock();
	ddctl_queryset_unref(resolved);
	ddctl_table_unref(now);
	return st;
}

int cli_timed_set(struct cli *cli, const struct cli_opts *opts,
		  struct ddctl_queryset *set, int argc, char **argv)
{
	struct ddctl_session *session = NULL;
	struct sigaction old[SESSION_SIGNALS];
	struct session_guard g;
	struct timespec ts;
	sigset_t waitmask, all;
	char *cmdline = command_line("set", argc, argv, NULL);
	size_t i;
	int st = cli_guard_init(cli, opts, false, &g);

	if (st || !cmdline) {
		free(cmdline);
		return st ? st : EXIT_REFUSED;
	}
	sigemptyset(&all);
	for (i = 0; i < SESSION_SIGNALS; i++)
		sigaddset(&all, session_signals[i]);
	got_signal = 0;
	signals(true, old, &waitmask);
	st = timed_apply(cli, set, &g, cmdline, &session);
	if (st == EXIT_HELP) {
		st = EXIT_OK;
	} else if (!st) {
		cli_note(cli, "restoring in %s (Ctrl-C restores now)\n", opts->duration);
		while (!got_signal && !cli_guard_expired(&g))
			ppoll(NULL, 0, cli_guard_wait(&g, NULL, &ts), &waitmask);
		if (got_signal)
			cli_note(cli, "%s: restoring early\n", strsignal(got_signal));
		else
			cli_guard_report(cli, &g);
		sigprocmask(SIG_BLOCK, &all, NULL);
		st = cli_session_restore(cli, session);
	}
	signals(false, old, &waitmask);
	ddctl_session_free(session);
	free(cmdline);
	return st;
}
