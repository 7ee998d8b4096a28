#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
#
# kernel-patches/check-ynl-gen.sh [7.2|6.12] [WORKDIR]
#
# What the series' ynl-gen patch (tools: ynl-gen: generate the permission
# flags of multicast groups) must not change, checked on the pristine
# tarball of the base (as check-series.sh finds it) in a git tree under
# WORKDIR (default /tmp/ddctl-ynl-gen-BASE):
#
#   "before" = the base with the series' patches up to the ynl-gen patch,
#   "after"  = the same plus the ynl-gen patch.
#
# In both trees, for every spec in Documentation/netlink/specs:
#   regen  every file of the tree that carries a YNL-GEN line, generated
#          as tools/net/ynl/ynl-regen.sh does (mode, header/source,
#          YNL-ARG), and compared with the file in the tree;
#   make   the user code tools/net/ynl/generated/Makefile generates (the
#          generator's commands of `make -n` there, with its per-family
#          arguments);
#   all    every spec in each mode: uapi header, kernel header, kernel
#          source, user header, user source (the ones the generator
#          refuses are recorded with their exit status and message);
#   rst    the spec's documentation page (ynl-gen-rst);
#   schema the spec validated with jsonschema against the schema it
#          declares (Documentation/netlink/<protocol>.yaml).
# Each output, exit status and last line of the error output (a
# traceback's line numbers move with the patch) is written under
# WORKDIR/out-before and WORKDIR/out-after; `diff -r` of the two must be
# empty.  Then a matrix of multicast group flags (admin-perm,
# uns-admin-perm, sys-admin-perm, and one no schema knows) on a minimal
# spec of each genetlink protocol: what the schema accepts and what the
# generator makes of it in kernel code, before and after.  Last, the rest
# of the series is applied and every spec of the final tree validated.
#
# Not part of CI (~15 min on 2 cores); needs python3-yaml and
# python3-jsonschema (Debian) and runs the generators with /usr/bin/python3
# (PYTHON=... to change).  Exit 0 when the outputs are identical, every
# spec is valid and the matrix is as expected after the patch.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BASE=${1:-7.2}
W=${2:-/tmp/ddctl-ynl-gen-$BASE}
case $BASE in
6.12) TARBALL=${DDCTL_KSRC_TARBALL:-/usr/src/linux-source-6.12.tar.xz} ;;
7.2) TARBALL=${DDCTL_KSRC_TARBALL:-${DDCTL_SRCCACHE:-/var/cache/ddctl/src}/linux-source-7.2.tar.xz} ;;
*) echo "usage: $0 [7.2|6.12] [WORKDIR]" >&2; exit 2 ;;
esac
SERIES=$HERE/$BASE
PY=${PYTHON:-/usr/bin/python3}
# (the schemas' $schema, draft-07 without its '#', is not one jsonschema
# knows: it warns and uses its latest draft, for the generator as here)
export PYTHONWARNINGS=ignore::DeprecationWarning
say() { echo "check-ynl-gen: $*"; }
die() { echo "check-ynl-gen: $*" >&2; exit 2; }

"$PY" -c 'import yaml, jsonschema' 2>/dev/null ||
	die "$PY lacks yaml or jsonschema (apt-get install python3-yaml python3-jsonschema)"
[ -r "$TARBALL" ] || die "no $TARBALL (see tests/vm/kernels/fetch-source.sh)"
mapfile -t PATCHES < <(sed 's/#.*//; /^[[:space:]]*$/d' "$SERIES/series")
YNL=
for i in "${!PATCHES[@]}"; do
	case ${PATCHES[$i]} in *-tools-ynl-gen-*) YNL=$i ;; esac
done
[ -n "$YNL" ] || die "no tools-ynl-gen patch in $SERIES/series"

git_am() {
	git -c user.name=check -c user.email=check@localhost am -q "$SERIES/$1" ||
		die "git am $1 failed"
}

rm -rf "$W"; mkdir -p "$W/src"
# validate.py SPEC...: one line per spec, "NAME PROTOCOL valid" or
# "NAME PROTOCOL INVALID: first error", against <protocol>.yaml in the
# directory above the spec's (where the generator looks for it)
cat > "$W/validate.py" <<'EOF'
import os, sys, yaml, jsonschema
for spec in sys.argv[1:]:
    with open(spec, encoding='utf-8') as f:
        y = yaml.safe_load(f)
    proto = y.get('protocol', 'genetlink')
    path = os.path.join(os.path.dirname(os.path.dirname(spec)), proto + '.yaml')
    with open(path, encoding='utf-8') as f:
        schema = yaml.safe_load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    errs = sorted('/'.join(str(p) for p in e.absolute_path) + ': ' + e.message
                  for e in cls(schema).iter_errors(y))
    print(os.path.basename(spec), proto, 'valid' if not errs else 'INVALID: ' + errs[0])
EOF
tar -xf "$TARBALL" -C "$W/src" --strip-components=1 || die "tar $TARBALL"
cd "$W/src" || exit 2
git init -q && git add -f . && git -c user.name=base -c user.email=base@localhost commit -q -m base
for ((i = 0; i < YNL; i++)); do git_am "${PATCHES[$i]}"; done
git tag before
git_am "${PATCHES[$YNL]}"
git tag after
say "$BASE: ${PATCHES[$YNL]} is patch $((YNL + 1)) of ${#PATCHES[@]}"

# The generators, as ynl-regen.sh and the Makefiles name them.
GEN=tools/net/ynl/$(sed -n 's@^TOOL=\$(dirname \$(realpath \$0))/@@p' tools/net/ynl/ynl-regen.sh)
RST=$(ls tools/net/ynl/pyynl/ynl_gen_rst.py tools/net/ynl/ynl-gen-rst.py 2>/dev/null | head -n1)
[ -f "$GEN" ] && [ -f "$RST" ] || die "no generator ($GEN) or rst generator ($RST)"

# run OUT DIR ARGS...: the python script ARGS in DIR, output to OUT;
# OUT.rc gets the exit status, OUT.err the last line of the errors.
run() {
	local out=$1 dir=$2
	shift 2
	mkdir -p "$(dirname "$out")"
	(cd "$dir" && timeout 300 "$PY" "$@" -o "$out") >/dev/null 2>"$out.stderr"
	echo $? > "$out.rc"
	tail -n1 "$out.stderr" > "$out.err"
	rm -f "$out.stderr"
}

gen() {
	local o=$1 f g spec mode hs args s m line out i
	local -a argv a
	mkdir -p "$o"
	# regen: the files with a YNL-GEN line, read as ynl-regen.sh reads them
	for f in $(git grep --files-with-matches '^/\* YNL-GEN \(kernel\|uapi\|user\)'); do
		read -r spec _ mode hs < <(git grep --no-line-number -B1 -h '/\* YNL-GEN' "$f" |
			sed 's@/\*\(.*\)\*/@\1@' | tr '\n' ' ')
		args=$(sed -n 's@/\* YNL-ARG \(.*\) \*/@\1@p' "$f")
		g=$o/regen/$f	# same name: the source includes its header by it
		# shellcheck disable=SC2086 # YNL-ARG is words, as in ynl-regen.sh
		run "$g" . "$GEN" --mode "$mode" "--$hs" --spec "$spec" $args
		if cmp -s "$g" "$f"; then echo same; else echo differs; fi > "$g.tree"
	done
	# make: the user code of tools/net/ynl/generated
	while read -r line; do
		read -ra argv <<< "$line"
		a=()
		for ((i = 1; i < ${#argv[@]}; i++)); do
			if [ "${argv[$i]}" = -o ]; then
				i=$((i + 1)); out=${argv[$i]}
			else
				a+=("${argv[$i]}")
			fi
		done
		run "$o/make/$out" tools/net/ynl/generated "${argv[0]}" "${a[@]}"
	done < <(make -s -n -C tools/net/ynl/generated 2>/dev/null |
		 grep -E "^[^ ]*$(basename "$GEN") ")
	# all: every spec in every mode; rst: its page
	for s in Documentation/netlink/specs/*.yaml; do
		for m in "uapi --header" "kernel --header" "kernel --source" \
			 "user --header" "user --source"; do
			# shellcheck disable=SC2086 # mode and --header/--source
			run "$o/all/$(basename "$s" .yaml).${m// /}" . "$GEN" --mode $m --spec "$s"
		done
		run "$o/rst/$(basename "$s" .yaml).rst" . "$RST" -i "$s"
	done
	# schema: each spec against the schema it declares
	"$PY" "$W/validate.py" Documentation/netlink/specs/*.yaml > "$o/schema.txt"
}

# count DIR: "N runs, N generated, N refused" of one output set
count() {
	local n ok
	n=$(find "$1" -name '*.rc' | wc -l)
	ok=$(find "$1" -name '*.rc' -exec grep -lx 0 {} + | wc -l)
	echo "$n runs, $ok generated, $((n - ok)) refused"
}

fail=0
for st in before after; do
	git checkout -q "$st" || die "checkout $st"
	gen "$W/out-$st"
done
O=$W/out-after
nspec=$(ls Documentation/netlink/specs/*.yaml | wc -l)
say "specs: $nspec; generator: $GEN ($PY)"
say "regen: $(count "$O/regen"); $(find "$O/regen" -name "*.tree" -exec grep -lx same {} + | wc -l) identical to the file in the tree"
say "make:  $(count "$O/make")"
say "all:   $(count "$O/all")"
say "rst:   $(count "$O/rst")"
say "schema: $(grep -c ' valid$' "$O/schema.txt") of $nspec specs valid against their schema"
grep -v ' valid$' "$O/schema.txt" | sed 's/^/check-ynl-gen:   /'
if diff -r "$W/out-before" "$W/out-after" > "$W/diff.txt"; then
	say "before/after: $(find "$O" -type f | wc -l) files each, all identical"
else
	say "FAIL: before/after differ ($(grep -c '^diff\|^Only' "$W/diff.txt") files; $W/diff.txt)"
	fail=1
fi

# The matrix: a minimal spec per protocol with one flag on its group
# (and admin-perm on its operation, which must stay GENL_ADMIN_PERM).
matrix() {
	local st=$1 p fl d
	git checkout -q "$st"
	for p in genetlink genetlink-c genetlink-legacy; do
		for fl in admin-perm uns-admin-perm sys-admin-perm cap-bogus; do
			d=$W/m-$st/$p/$fl
			mkdir -p "$d/netlink/specs"
			# (the generator looks for the tree's root, MAINTAINERS,
			# above the spec, and loops for ever if there is none)
			touch "$d/MAINTAINERS"
			cp "Documentation/netlink/$p.yaml" "$d/netlink/"
			cat > "$d/netlink/specs/m.yaml" <<-EOF
			# SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
			name: m
			protocol: $p
			doc: check-ynl-gen
			attribute-sets:
			  - name: a
			    attributes:
			      - name: x
			        type: u32
			operations:
			  list:
			    - name: get
			      doc: get
			      attribute-set: a
			      flags: [ admin-perm ]
			      do:
			        request:
			          attributes: [ x ]
			mcast-groups:
			  list:
			    - name: g
			      flags: [ $fl ]
			EOF
			"$PY" "$W/validate.py" "$d/netlink/specs/m.yaml" |
				sed 's/.* valid$/accepted/; s/.* INVALID: .*/rejected/' > "$d/schema"
			# (the generator validates against the schema as well)
			run "$d/c" "$d" "$W/src/$GEN" --mode kernel --source --spec netlink/specs/m.yaml
			printf '%-6s %-16s %-14s schema %-8s kernel: %s\n' "$st" "$p" "$fl" \
				"$(cat "$d/schema")" \
				"$(grep -so '\[M_NLGRP_G\] = {.*}' "$d/c" || echo "refused: $(cut -c1-50 "$d/c.err")")"
		done
	done
}
say "multicast group flags per schema, before and after:"
{ matrix before; matrix after; } > "$W/matrix.txt"
sed 's/^/check-ynl-gen:   /' "$W/matrix.txt"
# After the patch every schema accepts the three flags, the generator
# emits them, and the unknown flag is rejected by every schema.
want() { grep -q "^after  $1 *$2 *schema $3 *kernel: .*$4" "$W/matrix.txt" || {
	say "FAIL: after: $1 $2: expected $3, $4"; fail=1; }; }
for p in genetlink genetlink-c genetlink-legacy; do
	want $p admin-perm accepted '.flags = GENL_MCAST_CAP_NET_ADMIN, }'
	want $p uns-admin-perm accepted '.flags = GENL_MCAST_CAP_NET_ADMIN, }'
	want $p sys-admin-perm accepted '.flags = GENL_MCAST_CAP_SYS_ADMIN, }'
	want $p cap-bogus rejected refused
done
# and the operation's admin-perm is still the init_user_ns check
n=$(grep -l 'GENL_ADMIN_PERM' "$W"/m-after/*/*-perm/c | wc -l)
say "after: the op's admin-perm is GENL_ADMIN_PERM in $n of 9 kernel sources"
[ "$n" = 9 ] || fail=1
git checkout -q after

# The rest of the series on top, and every spec of its final tree.
for ((i = YNL + 1; i < ${#PATCHES[@]}; i++)); do git_am "${PATCHES[$i]}"; done
"$PY" "$W/validate.py" Documentation/netlink/specs/*.yaml > "$W/schema-end.txt"
say "all ${#PATCHES[@]} patches applied: $(grep -c ' valid$' "$W/schema-end.txt") of $(ls Documentation/netlink/specs/*.yaml | wc -l) specs valid"
if grep -v ' valid$' "$W/schema-end.txt" | sed 's/^/check-ynl-gen:   /' | grep .; then
	fail=1
fi
if [ $fail = 0 ]; then say OK; else say FAILED; fi
exit $fail
