// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Scoped sessions (ddctl follow, ddctl run): the set a session applies
 * (the user's queries plus the decoration that attributes each printed
 * line to its callsite), and its record under /run/ddctl/sessions: the
 * state the session's sites have while it runs and the exact script that
 * puts them back. The record is written (fsync'd, renamed into place)
 * before anything changes, so a session killed with SIGKILL is found and
 * undone later. The directory is $DDCTL_RUN_DIR when set (tests).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/paths.h"
#include "model/address.h"
#include "model/index.h"
#include "model/plan.h"
#include "model/queryset.h"
#include "model/table.h"
#include "util/strbuf.h"
#include "util/mkdir.h"
#include "util/read-file.h"
#include "model/limits.h"
#include "model/wildcard.h"
#include "store/modprobe.h"

#define SESSION_DIR RUN_SESSIONS
#define SESSION_SUFFIX ".session"
#define RECORD_HEADER \
	"# ddctl session record: run 'ddctl sessions --restore' to undo a\n" \
	"# session that could not. [restore] is a query script ('ddctl -f').\n"

struct ddctl_session {
	struct ddctl_ctx *ctx;
	struct ddctl_queryset *set;   /* NULL for a record read back */
	struct ddctl_table *sites;    /* the followed sites, predicted flags */
	char *during, *restore;       /* query scripts */
	size_t changes;
	long pid;
	unsigned long long starttime; /* /proc/PID/stat field 22 */
	long long start;              /* time(2) */
	long long until;              /* time(2) of a timed session's end; 0: none */
	char *command;
	char *path;
	/* modules not loaded at the start, loaded later or configured at load */
	char **modules;
	size_t nmodules;
	struct ddctl_queryset *load;  /* their queries, for the load-time file */
	char *modprobe;               /* the load-time file, named in the record */
};

static bool has_module(const struct ddctl_session *s, const char *module)
{
	size_t i;

	for (i = 0; i < s->nmodules; i++)
		if (!strcmp(s->modules[i], module))
			return true;
	return false;
}

static int add_module(struct ddctl_session *s, const char *module)
{
	char **m;

	if (has_module(s, module))
		return 0;
	m = realloc(s->modules, (s->nmodules + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	s->modules = m;
	m[s->nmodules] = strdup(module);
	if (!m[s->nmodules])
		return -ENOMEM;
	s->nmodules++;
	return 0;
}

/*
 * The load-time set: the user's queries that name one module that is not
 * loaded (aliases already resolved), then the decoration for each such
 * module, so that its lines are attributed from its init on.
 */
static int session_build_load(struct ddctl_session *s, struct ddctl_queryset *user,
			      struct ddctl_table *now, unsigned int deco)
{
	char word[DDCTL_FLAGS_BUFSZ], *text = NULL;
	size_t i;
	int r = ddctl_queryset_new(s->ctx, &s->load);

	for (i = 0; !r && i < user->count; i++) {
		const struct ddctl_query *q = &user->queries[i];
		const char *m = q->spec[DD_SPEC_MODULE];

		if (!m || q->negated[DD_SPEC_MODULE] || dd_has_wildcard(m) ||
		    index_has_value(now, DD_KEY_MODULE, m))
			continue;
		r = ddctl_queryset_parse(s->load, q->canonical, 0);
		if (!r)
			r = add_module(s, m);
	}
	ddctl_flags_format(deco, word);
	word[0] = '+';
	for (i = 0; !r && deco && i < s->nmodules; i++) {
		if (asprintf(&text, "module %s %s", s->modules[i], word) < 0)
			return -ENOMEM;
		r = ddctl_queryset_parse(s->load, text, 0);
		free(text);
	}
	return r;
}

static int set_text(struct ddctl_queryset *set, char **text)
{
	struct strbuf sb = { 0 };
	int r = strbuf_adds(&sb, "");

	if (!r)
		r = queryset_format(set, &sb);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*text = strbuf_steal(&sb);
	return *text ? 0 : -ENOMEM;
}

/* The script that brings @now's sites to @want's flags, as text. */
static int restore_text(struct ddctl_ctx *ctx, struct ddctl_table *now,
			struct ddctl_table *want, char **text)
{
	struct ddctl_queryset *set = NULL;
	int r = ddctl_queryset_new_restore(ctx, now, want, &set);

	if (!r)
		r = set_text(set, text);
	ddctl_queryset_unref(set);
	return r;
}

/* The user's set, then @deco added to the sites it leaves printing. */
static int session_build_set(struct ddctl_session *s, struct ddctl_queryset *user,
			     struct ddctl_table *now, unsigned int deco,
			     bool *followed)
{
	struct ddctl_plan *plan = NULL;
	struct strbuf sb = { 0 };
	char word[DDCTL_FLAGS_BUFSZ];
	bool *todo = calloc(now->count + 1, sizeof(*todo));
	size_t i;
	int r = todo ? ddctl_plan_new(user, now, &plan) : -ENOMEM;

	for (i = 0; !r && i < now->count; i++) {
		followed[i] = plan->selected[i] && (plan->final[i] & DDCTL_FLAG_PRINT);
		todo[i] = followed[i] && (plan->final[i] & deco) != deco;
	}
	if (!r)
		r = queryset_format(user, &sb);
	ddctl_flags_format(deco, word);
	word[0] = '+';
	if (!r && deco)
		r = address_sites(now, todo, NULL, false, word, &sb);
	if (!r)
		r = ddctl_queryset_new(s->ctx, &s->set);
	if (!r && sb.len && ddctl_queryset_parse(s->set, sb.buf, 0) < 0)
		r = -ENOTRECOVERABLE;
	strbuf_release(&sb);
	ddctl_plan_unref(plan);
	free(todo);
	return r;
}

DDCTL_EXPORT int ddctl_session_new(struct ddctl_queryset *set,
				   struct ddctl_table *now, unsigned int decoration,
				   struct ddctl_session **session)
{
	struct ddctl_session *s = calloc(1, sizeof(*s));
	struct ddctl_table *during = NULL;
	struct ddctl_plan *plan = NULL;
	bool *followed = calloc(now->count + 1, sizeof(*followed));
	size_t i;
	int r;

	if (!s || !followed) {
		free(s);
		free(followed);
		return -ENOMEM;
	}
	s->ctx = ddctl_ref(now->ctx);
	s->pid = -1;
	r = session_build_set(s, set, now, decoration & DD_FLAGS_ALL & ~DDCTL_FLAG_PRINT,
			      followed);
	if (!r)
		r = ddctl_plan_new(s->set, now, &plan);
	if (!r)
		r = ddctl_table_new_from_plan(plan, &during);
	if (!r)
		r = table_subset(during, followed, &s->sites);
	if (!r)
		r = restore_text(s->ctx, now, during, &s->during);
	if (!r)
		r = restore_text(s->ctx, during, now, &s->restore);
	if (!r)
		r = session_build_load(s, set, now, decoration & DD_FLAGS_ALL & ~DDCTL_FLAG_PRINT);
	for (i = 0; !r && i < now->count; i++)
		s->changes += during->sites[i].flags != now->sites[i].flags;
	ddctl_plan_unref(plan);
	ddctl_table_unref(during);
	free(followed);
	if (r < 0) {
		ddctl_session_free(s);
		return r;
	}
	*session = s;
	return 0;
}

DDCTL_EXPORT void ddctl_session_free(struct ddctl_session *s)
{
	size_t i;

	if (!s)
		return;
	ddctl_queryset_unref(s->set);
	ddctl_queryset_unref(s->load);
	ddctl_table_unref(s->sites);
	for (i = 0; i < s->nmodules; i++)
		free(s->modules[i]);
	free(s->modules);
	free(s->modprobe);
	free(s->during);
	free(s->restore);
	free(s->command);
	free(s->path);
	ddctl_unref(s->ctx);
	free(s);
}

DDCTL_EXPORT struct ddctl_queryset *ddctl_session_get_set(const struct ddctl_session *s)
{
	return s->set;
}

DDCTL_EXPORT struct ddctl_table *ddctl_session_get_sites(const struct ddctl_session *s)
{
	return s->sites;
}

DDCTL_EXPORT size_t ddctl_session_get_change_count(const struct ddctl_session *s)
{
	return s->changes;
}

DDCTL_EXPORT long ddctl_session_get_pid(const struct ddctl_session *s)
{
	return s->pid;
}

DDCTL_EXPORT long long ddctl_session_get_start(const struct ddctl_session *s)
{
	return s->start;
}

DDCTL_EXPORT long long ddctl_session_get_until(const struct ddctl_session *s)
{
	return s->until;
}

DDCTL_EXPORT void ddctl_session_set_until(struct ddctl_session *s, long long until)
{
	s->until = until > 0 ? until : 0;
}

DDCTL_EXPORT const char *ddctl_session_get_command(const struct ddctl_session *s)
{
	return s->command ? s->command : "";
}

DDCTL_EXPORT const char *ddctl_session_get_path(const struct ddctl_session *s)
{
	return s->path;
}

DDCTL_EXPORT const char *ddctl_session_get_restore_script(const struct ddctl_session *s)
{
	return s->restore;
}

/* Field 22 of /proc/PID/stat: the start time in clock ticks since boot. */
static int proc_starttime(long pid, unsigned long long *ticks)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd, field;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* the command may hold blanks and ')' */
	if (!p)
		return -EIO;
	for (field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", ticks) != 1)
		return -EIO;
	return 0;
}

static bool process_running(long pid, unsigned long long starttime)
{
	unsigned long long t;

	if (pid <= 0 || (kill((pid_t)pid, 0) < 0 && errno != EPERM))
		return false;
	return proc_starttime(pid, &t) == 0 && t == starttime;
}

DDCTL_EXPORT bool ddctl_session_is_running(const struct ddctl_session *s)
{
	/* the same process, not a later one with the same pid */
	return process_running(s->pid, s->starttime);
}

/* @text as @path, all or nothing; @excl: -EEXIST instead of replacing. */
static int write_atomic(struct ddctl_ctx *ctx, const char *path,
			const char *text, bool excl)
{
	return ddctl_file_write(ctx, path, text, strlen(text),
				excl ? DDCTL_FILE_EXCL : 0);
}

/* A command line as one record line: control bytes become '?'. */
static char *one_line(const char *s)
{
	char *copy = strdup(s ? s : ""), *p;

	for (p = copy; p && *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = '?';
	return copy;
}

/* The record's text: its keys, the modules and load-time file, the scripts. */
static int record_text(struct ddctl_session *s, struct strbuf *sb)
{
	size_t i;
	int r = strbuf_addf(sb, "%spid=%ld\nstarttime=%llu\nstart=%lld\n",
			    RECORD_HEADER, s->pid, s->starttime, s->start);

	if (!r && s->until)
		r = strbuf_addf(sb, "until=%lld\n", s->until);
	if (!r)
		r = strbuf_addf(sb, "command=%s\n", s->command);
	if (!r && s->modprobe)
		r = strbuf_addf(sb, "modprobe=%s\n", s->modprobe);
	for (i = 0; !r && i < s->nmodules; i++)
		r = strbuf_addf(sb, "module=%s\n", s->modules[i]);
	if (!r)
		r = strbuf_addf(sb, "[during]\n%s[restore]\n%s", s->during, s->restore);
	return r;
}

static int record_write(struct ddctl_session *s, const char *path)
{
	struct strbuf sb = { 0 };
	int r = record_text(s, &sb);

	if (!r)
		r = write_atomic(s->ctx, path, sb.buf, false);
	strbuf_release(&sb);
	return r;
}

DDCTL_EXPORT int ddctl_session_save(struct ddctl_session *s, const char *command)
{
	const char *root = run_dir();
	char path[PATH_MAX], mp[PATH_MAX];
	int r;

	s->pid = (long)getpid();
	s->start = (long long)time(NULL);
	r = proc_starttime(s->pid, &s->starttime);
	free(s->command);
	s->command = one_line(command);
	if (!r && !s->command)
		r = -ENOMEM;
	if (!r && snprintf(path, sizeof(path), "%s%s/%ld-%llu%s", root, SESSION_DIR,
			   s->pid, s->starttime, SESSION_SUFFIX) >= (int)sizeof(path))
		r = -ENAMETOOLONG;
	/* the record names the load-time file before it exists */
	if (!r && s->load && s->load->count) {
		modprobe_run_clean(s->ctx, process_running);
		r = modprobe_run_path(s->ctx, s->pid, s->starttime, mp, sizeof(mp));
		free(s->modprobe);
		s->modprobe = r ? NULL : strdup(mp);
		if (!r && !s->modprobe)
			r = -ENOMEM;
	}
	if (!r)
		r = mkdir_p(root, SESSION_DIR);
	if (!r)
		r = record_write(s, path);
	if (r < 0) {
		err(s->ctx, "cannot write the session record %s%s: %s\n", root,
		    SESSION_DIR, strerror(-r));
		return r;
	}
	free(s->path);
	s->path = strdup(path);
	if (!s->path)
		return -ENOMEM;
	/* without it the session still works, but misses the modules' init */
	if (s->modprobe && modprobe_run_write(s->ctx, s->modprobe, s->load) < 0)
		warn(s->ctx, "warning: no load-time configuration in %s: modules loaded during the session get their queries only after their init\n",
		     s->modprobe);
	return 0;
}

DDCTL_EXPORT int ddctl_session_remove_load_config(struct ddctl_session *s)
{
	return s->modprobe ? modprobe_run_remove(s->modprobe) : 0;
}

DDCTL_EXPORT const char *ddctl_session_get_load_config_path(const struct ddctl_session *s)
{
	return s->modprobe;
}

DDCTL_EXPORT size_t ddctl_session_get_module_count(const struct ddctl_session *s)
{
	return s->nmodules;
}

DDCTL_EXPORT const char *ddctl_session_get_module(const struct ddctl_session *s,
						  size_t idx)
{
	return idx < s->nmodules ? s->modules[idx] : NULL;
}

static int join(char **a, const char *b)
{
	char *j;

	if (asprintf(&j, "%s%s", *a ? *a : "", b ? b : "") < 0)
		return -ENOMEM;
	free(*a);
	*a = j;
	return 0;
}

DDCTL_EXPORT int ddctl_session_merge(struct ddctl_session *s, struct ddctl_session *sub)
{
	struct ddctl_table *joined = NULL;
	char *during = strdup(s->during ? s->during : ""), *restore = strdup(s->restore ? s->restore : "");
	int r = during && restore ? 0 : -ENOMEM;

	if (!r)
		r = join(&during, sub->during);
	if (!r)
		r = join(&restore, sub->restore);
	if (!r)
		r = table_concat(s->sites, sub->sites, &joined);
	/* the record first: a session killed now still puts the sites back */
	if (!r && s->path) {
		char *d0 = s->during, *r0 = s->restore;

		s->during = during;
		s->restore = restore;
		r = record_write(s, s->path);
		s->during = d0;
		s->restore = r0;
	}
	if (r < 0) {
		free(during);
		free(restore);
		ddctl_table_unref(joined);
		return r;
	}
	free(s->during);
	free(s->restore);
	s->during = during;
	s->restore = restore;
	ddctl_table_unref(s->sites);
	s->sites = joined;
	s->changes += sub->changes;
	return 0;
}

DDCTL_EXPORT int ddctl_session_follow_module(struct ddctl_session *s,
					     struct ddctl_table *now,
					     const char *module, size_t *added)
{
	struct ddctl_table *mod = NULL, *joined = NULL;
	bool *keep = calloc(now->count + 1, sizeof(*keep));
	size_t i;
	int r = keep ? 0 : -ENOMEM;

	for (i = 0; keep && i < now->count; i++)
		keep[i] = !strcmp(now->sites[i].module, module) &&
			  (now->sites[i].flags & DDCTL_FLAG_PRINT);
	if (!r)
		r = table_subset(now, keep, &mod);
	if (!r)
		r = table_concat(s->sites, mod, &joined);
	free(keep);
	if (r < 0) {
		ddctl_table_unref(mod);
		return r;
	}
	*added = mod->count;
	ddctl_table_unref(mod);
	ddctl_table_unref(s->sites);
	s->sites = joined;
	return 0;
}

DDCTL_EXPORT int ddctl_session_remove(struct ddctl_session *s)
{
	int r = ddctl_session_remove_load_config(s);

	if (r < 0)
		return r;
	if (!s->path)
		return 0;
	if (unlink(s->path) < 0 && errno != ENOENT)
		return -errno;
	free(s->path);
	s->path = NULL;
	return 0;
}

static int parse_script(struct ddctl_ctx *ctx, const char *text,
			struct ddctl_queryset **set)
{
	int r = ddctl_queryset_new(ctx, set);

	if (!r)
		r = ddctl_queryset_parse(*set, text, 0);
	return r;
}

DDCTL_EXPORT int ddctl_session_get_restore(struct ddctl_session *s,
					   struct ddctl_table *now,
					   struct ddctl_queryset **set,
					   size_t *skipped)
{
	struct ddctl_queryset *during = NULL, *restore = NULL;
	struct ddctl_plan *pd = NULL, *pr = NULL;
	struct ddctl_table *want = NULL;
	size_t i, n = 0;
	int r;

	r = parse_script(s->ctx, s->during, &during);
	if (!r)
		r = parse_script(s->ctx, s->restore, &restore);
	if (r == -EINVAL)
		err(s->ctx, "session record %s: %s\n", s->path ? s->path : "",
		    ddctl_queryset_get_error(restore ? restore : during, NULL, NULL, NULL));
	if (!r)
		r = ddctl_plan_new(during, now, &pd);
	if (!r)
		r = ddctl_plan_new(restore, now, &pr);
	if (!r)
		r = ddctl_table_new_with_flags(now, 0, &want);
	for (i = 0; !r && i < now->count; i++) {
		table_set_site_flags(want, i, now->sites[i].flags);
		if (!pr->selected[i] || now->sites[i].flags == pr->final[i])
			continue;
		/* as the session left it: put back; else another writer's */
		if (now->sites[i].flags == pd->final[i])
			table_set_site_flags(want, i, pr->final[i]);
		else
			n++;
	}
	if (!r)
		r = ddctl_queryset_new_restore(s->ctx, now, want, set);
	ddctl_plan_unref(pd);
	ddctl_plan_unref(pr);
	ddctl_table_unref(want);
	ddctl_queryset_unref(during);
	ddctl_queryset_unref(restore);
	if (!r && skipped)
		*skipped = n;
	return r;
}

/*
 * A record names its load-time file by the one name ddctl gives it (its
 * pid and start time): nothing else is ever removed on its word.
 */
static int own_modprobe_path(struct ddctl_session *s)
{
	char want[PATH_MAX];

	if (!s->modprobe)
		return 0;
	if (modprobe_run_path(s->ctx, s->pid, s->starttime, want, sizeof(want)) == 0 &&
	    !strcmp(want, s->modprobe))
		return 0;
	err(s->ctx, "session record of pid %ld: modprobe=%s is not its load-time file: ignored\n",
	    s->pid, s->modprobe);
	free(s->modprobe);
	s->modprobe = NULL;
	return 0;
}

/* "key=value" lines, then "[during]" and "[restore]" scripts. */
static int session_parse(struct ddctl_session *s, char *text)
{
	char *during = strstr(text, "\n[during]\n");
	char *restore = strstr(text, "\n[restore]\n");
	char *line, *save = NULL;
	bool pid = false, st = false;

	if (!during || !restore || restore < during)
		return -EBADMSG;
	*during = '\0';
	*restore = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "pid=", 4))
			pid = sscanf(line + 4, "%ld", &s->pid) == 1 && s->pid > 0;
		else if (!strncmp(line, "starttime=", 10))
			st = sscanf(line + 10, "%llu", &s->starttime) == 1;
		else if (!strncmp(line, "start=", 6))
			sscanf(line + 6, "%lld", &s->start);
		else if (!strncmp(line, "until=", 6))
			sscanf(line + 6, "%lld", &s->until);
		else if (!strncmp(line, "command=", 8))
			s->command = strdup(line + 8);
		else if (!strncmp(line, "modprobe=", 9) && !s->modprobe)
			s->modprobe = strdup(line + 9);
		else if (!strncmp(line, "module=", 7) && add_module(s, line + 7) < 0)
			return -ENOMEM;
	}
	/* an empty [during] shares its newline with [restore] */
	s->during = strdup(restore < during + 10 ? "" : during + 10);
	s->restore = strdup(restore + 11);
	if (!s->during || !s->restore)
		return -ENOMEM;
	if (!pid || !st)
		return -EBADMSG;
	return own_modprobe_path(s);
}

/* The whole of @path, NUL-terminated; -EBADMSG when it holds a NUL. */
static int read_text(const char *path, char **text)
{
	return read_full_file(path, READ_FILE_NOFOLLOW | READ_FILE_TEXT, text, NULL);
}

static int session_load(struct ddctl_ctx *ctx, const char *path,
			struct ddctl_session **out)
{
	struct ddctl_session *s = calloc(1, sizeof(*s));
	char *text = NULL;
	int r;

	if (!s)
		return -ENOMEM;
	s->ctx = ddctl_ref(ctx);
	s->path = strdup(path);
	r = s->path ? read_text(path, &text) : -ENOMEM;
	if (!r)
		r = session_parse(s, text);
	free(text);
	if (r < 0) {
		ddctl_session_free(s);
		return r;
	}
	*out = s;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

DDCTL_EXPORT int ddctl_session_foreach(struct ddctl_ctx *ctx,
				       int (*fn)(struct ddctl_session *s, void *data),
				       void *data)
{
	char dir[PATH_MAX], path[PATH_MAX * 2], **names = NULL;
	size_t n = 0, i, sl = strlen(SESSION_SUFFIX);
	struct dirent *de;
	DIR *d;
	int r = 0;

	snprintf(dir, sizeof(dir), "%s%s", run_dir(), SESSION_DIR);
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char **tmp;

		if (len <= sl || strcmp(de->d_name + len - sl, SESSION_SUFFIX))
			continue;
		tmp = realloc(names, (n + 1) * sizeof(*names));
		if (!tmp || !(tmp[n] = strdup(de->d_name))) {
			names = tmp ? tmp : names;
			r = -ENOMEM;
			break;
		}
		names = tmp;
		n++;
	}
	closedir(d);
	if (names)
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; !r && i < n; i++) {
		struct ddctl_session *s = NULL;
		int lr;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		lr = session_load(ctx, path, &s);
		if (lr < 0) {
			err(ctx, "session record %s: %s\n", path,
			    lr == -EBADMSG ? "not a session record" : strerror(-lr));
			continue;
		}
		r = fn(s, data);
		ddctl_session_free(s);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return r;
}
