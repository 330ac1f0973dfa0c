#!/bin/sh
# Instructions per combatant-turn on the C&C bench pattern (see crates/fray-sim/examples/scale.rs),
# counted with callgrind: repeatable on a shared, noisy machine, unlike wall-clock time.
#
#   scripts/scale-instructions.sh [BINARY] [SIZES…]
#
# BINARY defaults to the release build of the `scale` example (cargo build --release -p fray-sim
# --example scale). Each size runs F and 2F fights (F = 40 fights of 12 combatants, fewer for
# bigger battles) once each; the difference cancels start-up and loading, and is divided by the
# difference in combatant-turns (rounds × combatants).
set -eu
bin=${1:-${CARGO_TARGET_DIR:-target}/release/examples/scale}
[ $# -gt 0 ] && shift
sizes=${*:-12 24 48 96 192}
count() { # size fights → "instructions rounds-per-fight"
    out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" --work $(($1 * $2)) \
        --repeat 1 2>&1)
    ir=$(printf '%s\n' "$out" | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
    rounds=$(printf '%s\n' "$out" | awk -v n="$1" '$1 == n { print $3 }')
    echo "$ir $rounds"
}
printf '%10s  %12s  %22s\n' combatants rounds/fight instructions/turn
for n in $sizes; do
    f=$((480 / n)); [ "$f" -lt 20 ] && f=20
    set -- $(count "$n" "$f"); i1=$1; r1=$2
    set -- $(count "$n" $((2 * f))); i2=$1; r2=$2
    awk -v n="$n" -v f="$f" -v i1="$i1" -v i2="$i2" -v r1="$r1" -v r2="$r2" 'BEGIN {
        turns = (2 * f * r2 - f * r1) * n
        printf "%10d  %12.3f  %22.0f\n", n, r2, (i2 - i1) / turns
    }'
done
