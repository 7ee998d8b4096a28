/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The service manager's notification protocol (sd_notify), without libsystemd. */
#ifndef DDCTL_CLI_OPS_NOTIFY_H
#define DDCTL_CLI_OPS_NOTIFY_H

/*
 * Send @state (e.g. "READY=1", newline-separated assignments) as one
 * datagram to $NOTIFY_SOCKET, as sd_notify(3) documents: an absolute path
 * of an AF_UNIX datagram socket, or "@name" for one in the abstract
 * namespace. Returns 1 when sent, 0 when $NOTIFY_SOCKET is unset or empty
 * (not started by a service manager that waits), -EAFNOSUPPORT for an
 * address of another kind, else -errno.
 */
int cli_notify(const char *state);

#endif
