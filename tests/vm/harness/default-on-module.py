#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""A copy of a test module whose callsites are on by default, as if its
files were compiled with DEBUG: every struct _ddebug in its __dyndbg section
gets the p flag, and the module is renamed (every NUL-terminated occurrence
of its name, which is its this_module name, its modinfo and the sites'
modname, replaced by one of the same length).

usage: default-on-module.py IN.ko OLDNAME NEWNAME SITES OUT.ko

SITES: how many callsites the module has (the section holds that many
entries).

Only for the VM suite's reset check: the kernel takes the flags as they
are in the object, so the copy loads with its sites =p."""
import struct
import sys


def sections(data):
    """{name: (offset, size)} of a little-endian ELF64 object."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SystemExit("not a little-endian ELF64 object")
    shoff, = struct.unpack_from("<Q", data, 40)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 58)
    hdr = lambda i: struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
    stroff = hdr(shstrndx)[4]
    out = {}
    for i in range(shnum):
        h = hdr(i)
        name = data[stroff + h[0]:data.index(b"\0", stroff + h[0])].decode()
        out[name] = (h[4], h[5])
    return out


def main(src, old, new, sites, dst):
    if len(old) != len(new):
        raise SystemExit("the new name must be as long as the old one")
    data = bytearray(open(src, "rb").read())
    off, size = sections(data)["__dyndbg"]
    # 4 pointers, then lineno:18 class_id:6 flags:8 (little-endian: the
    # flags are the word's last byte)
    n = int(sites)
    esz = size // n
    if size % n or esz % 8 or esz < 40:
        raise SystemExit("__dyndbg holds %d bytes: not %d entries" % (size, n))
    for e in range(off, off + size, esz):
        data[e + 35] |= 0x01
    data = bytes(data).replace(old.encode() + b"\0", new.encode() + b"\0")
    open(dst, "wb").write(data)


if __name__ == "__main__":
    if len(sys.argv) != 6:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
