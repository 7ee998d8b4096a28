// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON and control-file style output. */
#include <stdio.h>

#include "ddctl-cli.h"

void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void json_site_fields(FILE *f, const struct ddctl_site *site)
{
	fputs("\"file\":", f);
	json_string(f, ddctl_site_get_file(site));
	fprintf(f, ",\"line\":%u,\"module\":", ddctl_site_get_line(site));
	json_string(f, ddctl_site_get_module(site));
	fputs(",\"function\":", f);
	json_string(f, ddctl_site_get_function(site));
}

/* The format as the control file shows it (escapes for \n \t \r). */
void print_escaped_format(FILE *f, const char *fmt)
{
	for (; *fmt; fmt++) {
		switch (*fmt) {
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default: fputc(*fmt, f);
		}
	}
}
