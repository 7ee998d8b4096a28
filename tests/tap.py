# SPDX-License-Identifier: GPL-2.0-or-later
# SPDX-FileCopyrightText: the ddctl authors
"""TAP output shared by the Python test suites."""
import sys


class Tap:
    def __init__(self):
        self.results = []

    def check(self, name, cond, detail="", todo=None):
        """One result: @name passes if @cond holds; @detail is shown if not.
        With @todo (why it is expected to fail: the fix is not in yet) the
        result is a TAP TODO: reported, shown with its detail, and not a
        failure of the suite. Once it passes it reads "ok N - NAME # TODO",
        which meson counts as an unexpected pass, a failure: the sign to
        drop the @todo."""
        if todo:
            name = "%s # TODO %s" % (name, todo)
        self.results.append((name, bool(cond), detail, bool(todo)))

    def skip(self, name, why):
        """One result not tested here, and why (a TAP SKIP directive)."""
        self.check("%s # SKIP %s" % (name, why), True)

    def finish(self):
        """Prints the plan and the results; exits 1 if any failed that is
        not a TODO, else 0."""
        print("TAP version 13")
        print("1..%d" % len(self.results))
        for i, (name, ok, detail, _) in enumerate(self.results, 1):
            print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
            if not ok:
                for line in str(detail).splitlines()[:30]:
                    print("# " + line)
        sys.exit(0 if all(ok or todo for _, ok, _, todo in self.results) else 1)
