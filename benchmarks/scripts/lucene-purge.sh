#!/bin/sh
# What one purge costs in plain Lucene 9.12 and 10.x: lucene-purge/PurgeMerge.java (see its
# Javadoc) run on Lucene 9.12.3 with the java on PATH (17), then on Lucene 10.6.0 with the JDK in
# JAVA21_HOME (21 or newer), with Lucene's SIMD vector code (--add-modules jdk.incubator.vector)
# and without it. Lucene 10.4 and later reuse a segment's HNSW graph when a merge rewrites a
# segment with deletions; 9.12 builds the graph again. benchmarks/RESULTS.md, section 1, "Java 17
# or 21+", has the figures.
# Usage: JAVA21_HOME=/path/to/jdk benchmarks/scripts/lucene-purge.sh [N]   (default 100000; run
# from the repository root; needs Maven to fetch the two lucene-core jars into a temporary
# directory, and about 20 minutes at 100,000 on two cores, most of it Lucene 9.12's purges).
set -eu
n=${1:-100000}
: "${JAVA21_HOME:?set JAVA21_HOME to a JDK 21 or newer}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for version in 9.12.3 10.6.0; do
  mvn -B -q -N dependency:copy -Dartifact="org.apache.lucene:lucene-core:$version" \
    -DoutputDirectory="$work/lib" -Dmdep.stripVersion=false
done
src=benchmarks/scripts/lucene-purge/PurgeMerge.java
echo "== Lucene 9.12.3, $(java -version 2>&1 | head -1)"
java -Xmx4g -cp "$work/lib/lucene-core-9.12.3.jar" "$src" "$n" "$work/i9"
echo "== Lucene 10.6.0, $("$JAVA21_HOME/bin/java" -version 2>&1 | head -1), SIMD"
"$JAVA21_HOME/bin/java" -Xmx4g --add-modules jdk.incubator.vector \
  -cp "$work/lib/lucene-core-10.6.0.jar" "$src" "$n" "$work/i10"
echo "== Lucene 10.6.0, the same JDK, no SIMD"
"$JAVA21_HOME/bin/java" -Xmx4g -cp "$work/lib/lucene-core-10.6.0.jar" "$src" "$n" "$work/i10s"
