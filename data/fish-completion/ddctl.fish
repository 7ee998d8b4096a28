# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
# fish completion for ddctl(8): the same coverage as the bash one. Query
# words come from `ddctl __complete` (keywords, flags, and the module,
# file, function and class names of the control file in use, -C honoured;
# module names also of modules not loaded).

# The command line's -C/--control, and the words after the command.
function __ddctl_complete
    set -l tokens (commandline -opc)
    set -l ctl
    set -l cmdi 0
    set -l skip 0
    for i in (seq 2 (count $tokens))
        set -l w $tokens[$i]
        if test $skip = 1
            set skip 0
            continue
        end
        switch $w
            case -C --control
                set -a ctl --control $tokens[(math $i + 1)]
                set skip 1
            case '--control=*'
                set -a ctl $w
            case --kernel
                set -a ctl --kernel $tokens[(math $i + 1)]
                set skip 1
            case '--kernel=*'
                set -a ctl $w
            case -f --file -B --backend -o --output --sort --flags --kmsg --capture-writes --color --device --grep --since -n --lines --for --max-rate --max-lines
                set skip 1
            case '-*'
            case '*'
                if test $cmdi = 0
                    set cmdi $i
                end
        end
    end
    set -l words
    if test $cmdi -gt 0 -a $cmdi -lt (count $tokens)
        set words $tokens[(math $cmdi + 1)..-1]
    end
    if test "$argv[1]" = modules
        set words module
    end
    $tokens[1] $ctl __complete $words (commandline -ct) 2>/dev/null
end

# --output/--sort: a comma-separated list of columns
function __ddctl_columns
    set -l cur (commandline -ct)
    set -l prefix (string replace -r '[^,]*$' '' -- $cur)
    for c in flags location file line module function class format
        echo $prefix$c
    end
end

set -l commands list set modules info shell save restore apply-config persist watch monitor follow run sessions reset status diff help
complete -c ddctl -f
complete -c ddctl -n "not __fish_seen_subcommand_from $commands" -a "$commands"
complete -c ddctl -n '__fish_seen_subcommand_from list set follow run' -a '(__ddctl_complete)'
complete -c ddctl -n '__fish_seen_subcommand_from modules' -a '(__ddctl_complete modules)'
complete -c ddctl -n '__fish_seen_subcommand_from save restore persist diff' -F
complete -c ddctl -n '__fish_seen_subcommand_from help' -a "$commands"

complete -c ddctl -s c -l check -d 'print what would change; write nothing'
complete -c ddctl -s f -l file -r -F -d 'read queries from FILE'
complete -c ddctl -s j -l json -d 'print JSON'
complete -c ddctl -s v -l verbose -d 'per-query matched/changed counts'
complete -c ddctl -s q -l quiet -d 'no status line and no notes'
complete -c ddctl -s e -l enabled -d 'only sites with the p flag'
complete -c ddctl -s P -l persistent -d 'the dyndbg= modprobe options that will apply'
complete -c ddctl -l flags -x -d 'only sites with all these flags'
complete -c ddctl -s o -l output -x -a '(__ddctl_columns)' -d 'the columns'
complete -c ddctl -l sort -x -a '(__ddctl_columns)' -d 'sort by these columns'
complete -c ddctl -l no-pager -d 'no pager on a terminal'
complete -c ddctl -s l -l full -d 'list, modules, sessions: never cut a cell'
complete -c ddctl -l no-legend -d 'list, modules, sessions: no header line'
complete -c ddctl -l color -x -a 'auto always never' -d 'colour: auto, always or never'
complete -c ddctl -s y -l yes -d 'no question before a large set'
complete -c ddctl -l pretty -d 'with --json: indented'
complete -c ddctl -s C -l control -r -F -d 'use PATH as the control file'
complete -c ddctl -l kernel -x -d 'the query language of kernel VERSION'
complete -c ddctl -l expand -d 'expand negated queries'
complete -c ddctl -s B -l backend -x -a 'auto control netlink' -d 'the backend'
complete -c ddctl -s k -l keep-going -d 'shell: go on after an error'
complete -c ddctl -l raw -d 'follow, run: keep the kernel decoration'
complete -c ddctl -l all -d 'follow, run: also lines of other sources'
complete -c ddctl -l since-boot -d 'follow, run: include messages already logged'
complete -c ddctl -l device -x -d 'follow, run: only the lines of device DEV'
complete -c ddctl -l grep -x -d 'follow, run: only the lines matching PATTERN'
complete -c ddctl -l since -x -d 'follow, run: logged lines from TIME on (12.5, 30s)'
complete -c ddctl -s n -l lines -x -d 'follow, run: stop after N lines'
complete -c ddctl -l timestamps -d 'follow, run: each line\'s time (=monotonic, =realtime)'
complete -c ddctl -l for -x -d 'follow, run, set: restore after DURATION (30s, 5min)'
complete -c ddctl -l max-rate -x -d 'follow, run: restore when over N lines/s (0: off)'
complete -c ddctl -l max-lines -x -d 'follow, run: end after N lines'
complete -c ddctl -l stats -d 'follow, run: per-callsite counts'
complete -c ddctl -l top -d 'follow, run: only the per-callsite counts'
complete -c ddctl -l kmsg -r -F -d 'follow, run: read the kernel log from PATH'
complete -c ddctl -l restore -d 'sessions: restore ended sessions'
complete -c ddctl -l cmdline -d 'persist: the kernel command line words'
complete -c ddctl -l boot -d 'save: the boot snapshot'
complete -c ddctl -l capture-writes -r -F -d 'append the writes meant for the kernel to FILE'
complete -c ddctl -s h -l help -d 'show the help'
complete -c ddctl -s V -l version -d 'show the version'
