#!/usr/bin/env bash
# A real Spark cluster on this machine: starts a standalone Master and one Worker (2 cores, 1 GB) from the jars of
# a Spark 4.1.0 installation (resolved by Spark's own poms into library/spark/target/spark-dist/jars: Jackson 2.20, ...),
# spark-submits the shaded module JAR to spark://127.0.0.1:PORT running
#   approxgp run EXPERIMENT --mode MODE --engine spark --out spark.csv
# (client mode: the driver is spark-submit's JVM, the trials run in the Worker's executor JVM), runs the same
# experiment on the local engine, and compares the two CSVs byte for byte. Exit 0 when identical.
#
# Usage: library/spark/src/test/cluster/cluster-test.sh [EXPERIMENT] [MODE]     (default: qp-mining smoke)
# Needs the module built (mvn -B -ntp -DskipTests -pl library/spark -am package; done here when missing) and, once, Maven
# access to Central for the Spark installation's jars. Logs: library/spark/target/cluster/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../../.." && pwd)"
EXP="${1:-qp-mining}"
MODE="${2:-smoke}"
say() { printf 'cluster-test: %s\n' "$*" >&2; }
die() { printf 'cluster-test: error: %s\n' "$*" >&2; exit 1; }
T0=$SECONDS

shaded=$(ls "$ROOT"/library/spark/target/approxgp-spark-*-shaded.jar 2>/dev/null | head -n 1 || true)
if [[ -z "$shaded" || -n "$(find "$ROOT/pom.xml" "$ROOT/library" -path "$ROOT/library/*/target" -prune \
    -o -type f \( -name pom.xml -o -path '*/src/main/*' \) -newer "$shaded" -print -quit)" ]]; then
  say "building the library and the spark module (mvn -B -ntp -q -DskipTests -pl library/spark -am package) ..."
  (cd "$ROOT" && mvn -B -ntp -q -DskipTests -pl library/spark -am package) || die "build failed"
  shaded=$(ls "$ROOT"/library/spark/target/approxgp-spark-*-shaded.jar | head -n 1)
fi
dist="$ROOT/library/spark/target/spark-dist"
if [[ ! -f "$dist/RELEASE" ]]; then
  say "resolving a Spark 4.1.0 installation's jars into $dist/jars ..."
  rm -rf "$dist" && mkdir -p "$dist"
  mvn -B -ntp -q -f "$ROOT/library/spark/src/test/cluster/pom.xml" dependency:copy-dependencies \
    -DoutputDirectory="$dist/jars" || die "could not resolve Spark's jars"
  # Spark's launcher takes $SPARK_HOME/jars as the class path of an installation with a RELEASE file
  echo "Spark 4.1.0 (Scala 2.13) jars for approxgp's cluster test" >"$dist/RELEASE"
fi
export SPARK_HOME="$dist" SPARK_SCALA_VERSION=2.13 SPARK_LOCAL_IP=127.0.0.1
# the JVM flags Spark 4 needs on JDK 17+ (Spark's launcher adds them to the executors it starts)
flags=(-XX:+IgnoreUnrecognizedVMOptions -Djdk.reflect.useDirectMethodHandle=false -Dio.netty.tryReflectionSetAccessible=true
  -Dlog4j2.configurationFile="$ROOT/library/spark/src/test/cluster/log4j2.properties")
for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util java.util.concurrent \
    java.util.concurrent.atomic jdk.internal.ref sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
  flags+=("--add-opens=java.base/$p=ALL-UNNAMED")
done
cp="$dist/jars/*"

work="$ROOT/library/spark/target/cluster"
rm -rf "$work" && mkdir -p "$work"
read -r mport mui wui < <(python3 - <<'PY'
import socket
ss = [socket.socket() for _ in range(3)]
for s in ss:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])
for s in ss:
    s.close()
PY
)
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
wait_for() {  # log pattern seconds what
  local i
  for ((i = 0; i < $3 * 2; i++)); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    sleep 0.5
  done
  tail -20 "$1" >&2
  die "$4 did not start in $3 s (log: $1)"
}

t_start=$SECONDS
java "${flags[@]}" -Xmx512m -cp "$cp" org.apache.spark.deploy.master.Master --host 127.0.0.1 --port "$mport" \
  --webui-port "$mui" >"$work/master.log" 2>&1 &
pids+=($!)
wait_for "$work/master.log" "I have been elected leader" 120 "the Master"
java "${flags[@]}" -Xmx512m -cp "$cp" org.apache.spark.deploy.worker.Worker --host 127.0.0.1 --cores 2 --memory 1g \
  --webui-port "$wui" --work-dir "$work/worker" "spark://127.0.0.1:$mport" >"$work/worker.log" 2>&1 &
pids+=($!)
wait_for "$work/worker.log" "Successfully registered with master" 120 "the Worker"
say "Master spark://127.0.0.1:$mport and a Worker (2 cores) up in $((SECONDS - t_start)) s"

t_submit=$SECONDS
java "${flags[@]}" -cp "$cp" org.apache.spark.deploy.SparkSubmit --master "spark://127.0.0.1:$mport" \
  --deploy-mode client --class org.approxgp.cli.Main --conf spark.driver.host=127.0.0.1 \
  --conf spark.ui.enabled=false --conf spark.executor.memory=768m --conf spark.executorEnv.APPROXGP_HOME="$ROOT" \
  "$shaded" run "$EXP" --mode "$MODE" --engine spark --results "$work/results-spark" --out "$work/spark.csv" \
  >"$work/submit.log" 2>&1 || { tail -40 "$work/submit.log" >&2; die "spark-submit failed (log: $work/submit.log)"; }
submit_s=$((SECONDS - t_submit))
say "spark-submit of $EXP ($MODE) on the cluster: $submit_s s"
grep -q "app-[0-9-]*" "$work/master.log" || die "the Master never saw an application"
executors=$(find "$work/worker" -name stderr 2>/dev/null | wc -l)
[[ $executors -ge 1 ]] || die "no executor ran on the Worker (log: $work/worker.log)"

t_local=$SECONDS
java -cp "$(ls "$ROOT"/library/cli/target/approxgp-cli-*.jar | grep -v -e sources -e javadoc -e tests | head -n 1):$ROOT/library/cli/target/lib/*" \
  org.approxgp.cli.Main run "$EXP" --mode "$MODE" --engine local --results "$work/results-local" \
  --out "$work/local.csv" >"$work/local.log" 2>&1 || { tail -20 "$work/local.log" >&2; die "local run failed"; }
say "the same on the local engine: $((SECONDS - t_local)) s"
if cmp -s "$work/local.csv" "$work/spark.csv"; then
  say "identical CSVs ($(wc -l <"$work/spark.csv") lines) from the cluster and the local engine; total $((SECONDS - T0)) s"
  cat "$work/spark.csv"
else
  diff "$work/local.csv" "$work/spark.csv" | head -20 >&2
  die "the cluster's CSV differs from the local engine's"
fi
