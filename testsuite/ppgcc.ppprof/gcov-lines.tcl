# Helpers of annotate.exp and lcov.exp (sourced; not a test of its own):
# linecount.c built and run twice, once with gcc --coverage and gcov, once
# with ppgcc -fprofile-paths, and their per-line counts.  Both at -O0: the
# blocks of an optimised build need not be those gcov instruments, and
# gcov's own line counts are only meaningful without optimisation.

# Builds linecount.c in DIR with COMPILER and FLAGS and runs it with ARGS
# there; returns 1, or 0 after a FAIL named TAG.
proc lc_build_run {tag dir compiler flags args} {
    global srcdir subdir
    file delete -force $dir
    file mkdir $dir
    file copy -force $srcdir/$subdir/linecount.c $dir/linecount.c
    foreach step [list "$compiler $flags -c linecount.c -o linecount.o" \
                      "$compiler $flags linecount.o -o linecount" \
                      "./linecount $args"] {
        set r [ppgcc_exec $step $dir]
        if {[lindex $r 0] != 0} {
            fail "$tag: $step: [lindex $r 1]"
            return 0
        }
    }
    return 1
}

# gcov's counts of linecount.c run with ARGS (built in DIR): a dict line
# -> count of the lines gcov counts ("#####" is 0; "1*", a line with a
# block that never ran, is 1), or "" after a FAIL.
proc lc_gcov_counts {tag dir args} {
    if {![lc_build_run $tag $dir gcc "-O0 --coverage" {*}$args]} {
        return ""
    }
    # -b: also "function F called N ..." before each function's lines,
    # and "branch K taken N" after a line's (-c: counts, not percents).
    set r [ppgcc_exec "gcov -b -c -o . linecount.o" $dir]
    if {[lindex $r 0] != 0 || ![file exists $dir/linecount.c.gcov]} {
        fail "$tag: gcov: [lindex $r 1]"
        return ""
    }
    set f [open $dir/linecount.c.gcov r]
    set counts [dict create]
    foreach line [split [read $f] "\n"] {
        if {[regexp {^\s*([0-9]+)\*?:\s*([0-9]+):} $line -> c n]} {
            dict set counts $n $c
        } elseif {[regexp {^\s*#####:\s*([0-9]+):} $line -> n]} {
            dict set counts $n 0
        }
    }
    close $f
    return $counts
}

# gcov's functions in DIR's linecount.c.gcov (lc_gcov_counts made it): a
# dict name -> {line calls}, the line being that of the count after
# gcov's "function NAME called N" line.
proc lc_gcov_functions {dir} {
    set f [open $dir/linecount.c.gcov r]
    set fns [dict create]
    set pending ""
    foreach line [split [read $f] "\n"] {
        if {[regexp {^function (\S+) called ([0-9]+)} $line -> name calls]} {
            set pending [list $name $calls]
        } elseif {$pending ne ""
                  && [regexp {^\s*(?:[0-9]+\*?|#####|-):\s*([0-9]+):} $line -> n]} {
            dict set fns [lindex $pending 0] [list $n [lindex $pending 1]]
            set pending ""
        }
    }
    close $f
    return $fns
}

# gcov's branches in DIR's linecount.c.gcov: a sorted list of
# "LINE TAKEN", one per branch gcov -b -c counts ("never executed": -).
proc lc_gcov_branches {dir} {
    set f [open $dir/linecount.c.gcov r]
    set branches {}
    set n 0
    foreach line [split [read $f] "\n"] {
        if {[regexp {^\s*(?:[0-9]+\*?|#####|-):\s*([0-9]+):} $line -> ln]} {
            set n $ln
        } elseif {[regexp {^branch\s+[0-9]+ taken ([0-9]+)} $line -> c]} {
            lappend branches "$n $c"
        } elseif {[regexp {^branch\s+[0-9]+ never executed} $line]} {
            lappend branches "$n -"
        }
    }
    close $f
    return [lsort -dictionary $branches]
}

# Lines of `ppprof annotate` (or of gcov) as a dict line -> count, the
# function headers and "-" lines left out.
proc lc_annotate_counts {text} {
    set counts [dict create]
    foreach line [split $text "\n"] {
        if {[regexp {^[ >]?\s*([0-9]+):\s*([0-9]+):} $line -> c n]} {
            dict set counts $n $c
        } elseif {[regexp {^[ >]?\s*#####:\s*([0-9]+):} $line -> n]} {
            dict set counts $n 0
        }
    }
    return $counts
}

# PASS TAG when the dicts line -> count WANT (gcov's) and GOT hold the same
# lines with the same counts, else FAIL listing the differences.  WANT
# must not be empty (a parse that found nothing proves nothing).
proc lc_compare {tag want got} {
    set diffs {}
    dict for {n c} $want {
        if {![dict exists $got $n]} {
            lappend diffs "line $n: gcov $c, ppprof no count"
        } elseif {[dict get $got $n] != $c} {
            lappend diffs "line $n: gcov $c, ppprof [dict get $got $n]"
        }
    }
    dict for {n c} $got {
        if {![dict exists $want $n]} {
            lappend diffs "line $n: gcov no count, ppprof $c"
        }
    }
    if {[dict size $want] == 0} {
        lappend diffs "no line counted by gcov"
    }
    if {$diffs eq ""} {
        pass $tag
    } else {
        fail "$tag: [join $diffs {; }]"
    }
}
