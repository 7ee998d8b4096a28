// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* The library context: logging, the control file, kernel features. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <libkmod.h>

#include "libddctl-private.h"

#define PROC_CONTROL "/proc/dynamic_debug/control"
#define PROC_SUPER_MAGIC 0x9fa0
#define DEBUGFS_MAGIC 0x64626720

static void log_stderr(void *data, int priority, const char *file, int line,
		       const char *fn, const char *format, va_list args)
{
	(void)data;
	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	fprintf(stderr, "libddctl: ");
	vfprintf(stderr, format, args);
}

static int log_priority_from_string(const char *s)
{
	char *end;
	long prio = strtol(s, &end, 10);

	if (end != s && *end == '\0')
		return (int)prio;
	if (!strncmp(s, "err", 3))
		return LOG_ERR;
	if (!strncmp(s, "info", 4))
		return LOG_INFO;
	if (!strncmp(s, "debug", 5))
		return LOG_DEBUG;
	return LOG_ERR;
}

void ddctl_log(struct ddctl_ctx *ctx, int priority, const char *file,
	       int line, const char *fn, const char *format, ...)
{
	va_list args;

	if (!ctx->log_fn)
		return;
	va_start(args, format);
	ctx->log_fn(ctx->log_data, priority, file, line, fn, format, args);
	va_end(args);
}

DDCTL_EXPORT int ddctl_new(struct ddctl_ctx **out)
{
	struct ddctl_ctx *ctx = calloc(1, sizeof(*ctx));
	const char *env;

	if (!ctx)
		return -ENOMEM;
	ctx->refcount = 1;
	ctx->log_fn = log_stderr;
	ctx->log_priority = LOG_WARNING;
	env = secure_getenv("DDCTL_LOG");
	if (env)
		ctx->log_priority = log_priority_from_string(env);
	*out = ctx;
	return 0;
}

DDCTL_EXPORT struct ddctl_ctx *ddctl_ref(struct ddctl_ctx *ctx)
{
	if (ctx)
		ctx->refcount++;
	return ctx;
}

DDCTL_EXPORT struct ddctl_ctx *ddctl_unref(struct ddctl_ctx *ctx)
{
	if (!ctx || --ctx->refcount > 0)
		return ctx;
	kmod_unref(ctx->kmod);
	free(ctx->control_path);
	free(ctx->config_root);
	free(ctx->write_capture);
	free(ctx);
	return NULL;
}

DDCTL_EXPORT void ddctl_set_log_fn(struct ddctl_ctx *ctx,
				   void (*fn)(void *data, int priority,
					      const char *file, int line,
					      const char *fn,
					      const char *format, va_list args),
				   void *data)
{
	ctx->log_fn = fn;
	ctx->log_data = data;
}

DDCTL_EXPORT int ddctl_get_log_priority(const struct ddctl_ctx *ctx)
{
	return ctx->log_priority;
}

DDCTL_EXPORT void ddctl_set_log_priority(struct ddctl_ctx *ctx, int priority)
{
	ctx->log_priority = priority;
}

DDCTL_EXPORT int ddctl_set_control_path(struct ddctl_ctx *ctx,
					const char *path)
{
	char *copy = NULL;

	if (path) {
		copy = strdup(path);
		if (!copy)
			return -ENOMEM;
	}
	free(ctx->control_path);
	ctx->control_path = copy;
	ctx->control_path_set = copy != NULL;
	ctx->features_known = false;
	return 0;
}

DDCTL_EXPORT int ddctl_set_write_capture(struct ddctl_ctx *ctx,
					 const char *path)
{
	char *copy = path ? strdup(path) : NULL;

	if (path && !copy)
		return -ENOMEM;
	free(ctx->write_capture);
	ctx->write_capture = copy;
	return 0;
}

/* The debugfs mount point from /proc/mounts, as libtracefs finds tracefs. */
static char *find_debugfs(void)
{
	char line[4096], dev[256], dir[3072], type[64];
	char *found = NULL;
	FILE *f = fopen("/proc/mounts", "re");

	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %3071s %63s", dev, dir, type) != 3)
			continue;
		if (!strcmp(type, "debugfs"))
			found = strdup(dir);
	}
	fclose(f);
	return found;
}

DDCTL_EXPORT int ddctl_get_control_path(struct ddctl_ctx *ctx,
					const char **path)
{
	char *debugfs;

	if (!ctx->control_path) {
		if (access(PROC_CONTROL, F_OK) == 0) {
			ctx->control_path = strdup(PROC_CONTROL);
		} else {
			debugfs = find_debugfs();
			if (!debugfs)
				return -ENOENT;
			if (asprintf(&ctx->control_path,
				     "%s/dynamic_debug/control", debugfs) < 0)
				ctx->control_path = NULL;
			free(debugfs);
			if (ctx->control_path &&
			    access(ctx->control_path, F_OK) < 0) {
				free(ctx->control_path);
				ctx->control_path = NULL;
				return -ENOENT;
			}
		}
		if (!ctx->control_path)
			return -ENOMEM;
	}
	*path = ctx->control_path;
	return 0;
}

bool ctx_control_is_kernel(struct ddctl_ctx *ctx)
{
	const char *path;
	struct statfs sfs;

	if (ddctl_get_control_path(ctx, &path) < 0 || statfs(path, &sfs) < 0)
		return false;
	return sfs.f_type == PROC_SUPER_MAGIC || sfs.f_type == DEBUGFS_MAGIC;
}

/* Do writes reach the kernel (not a capture file)? */
bool ctx_writes_kernel(struct ddctl_ctx *ctx)
{
	return !ctx->write_capture && ctx_control_is_kernel(ctx);
}

static bool ctx_nl_present(struct ddctl_ctx *ctx);

DDCTL_EXPORT int ddctl_get_features(struct ddctl_ctx *ctx,
				    unsigned int *features)
{
	const char *path;
	int r;

	if (!ctx->features_known) {
		r = ddctl_get_control_path(ctx, &path);
		if (r < 0)
			return r;
		ctx->features = 0;
		if (ctx_control_is_kernel(ctx)) {
			ctx->features |= DDCTL_FEATURE_CONTROL;
			/* the family says so: no probe in the kernel log */
			if (ctx_nl_present(ctx))
				ctx->features |= DDCTL_FEATURE_NETLINK |
						 DDCTL_FEATURE_TRANSACTIONS |
						 DDCTL_FEATURE_NEGATION;
			else if (features_probe_negation(ctx, path) == 1)
				ctx->features |= DDCTL_FEATURE_NEGATION;
		}
		ctx->features_known = true;
	}
	*features = ctx->features;
	return 0;
}

DDCTL_EXPORT void ddctl_set_features(struct ddctl_ctx *ctx,
				     unsigned int features)
{
	ctx->features = features;
	ctx->features_known = true;
}

DDCTL_EXPORT void ddctl_set_backend(struct ddctl_ctx *ctx,
				    enum ddctl_backend backend)
{
	ctx->backend = backend;
}

static bool ctx_nl_present(struct ddctl_ctx *ctx)
{
	if (!ctx->nl_probed) {
		ctx->nl_probed = true;
		if (nl_probe(ctx) < 0)
			ctx->nl_family = 0;
	}
	return ctx->nl_family != 0;
}

/* Netlink when asked for, or (AUTO) when the kernel has the family and
 * the control file is the kernel's own rather than one given by path. */
bool ctx_use_netlink(struct ddctl_ctx *ctx)
{
	if (ctx->backend == DDCTL_BACKEND_CONTROL)
		return false;
	if (ctx->backend == DDCTL_BACKEND_AUTO &&
	    (ctx->control_path_set || ctx->write_capture))
		return false;
	return ctx->backend == DDCTL_BACKEND_NETLINK || ctx_nl_present(ctx);
}

DDCTL_EXPORT enum ddctl_backend ddctl_get_backend(struct ddctl_ctx *ctx)
{
	return ctx_use_netlink(ctx) ? DDCTL_BACKEND_NETLINK : DDCTL_BACKEND_CONTROL;
}
