#!/usr/bin/env bash
# Runs spark-engine.ipynb in the project's notebook kernel (the kernelspec of notebooks/kernel/lib.sh) with
# nbconvert: the kernel has no Spark on its class path, a cell chooses the engine in one line
# (Runner.defaults().withEngine("spark", "local[2]")) and the library loads library/spark/target/engine on demand; the
# notebook fails unless Spark's rows equal the local engine's bit for bit. Exit 0 on success.
#
# Usage: library/spark/src/test/notebooks/run-spark-notebook.sh   (builds the library and the spark module if needed)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../../.." && pwd)"
here="$ROOT/library/spark/src/test/notebooks"
# shellcheck source=../../../../notebooks/kernel/lib.sh
source "$ROOT/notebooks/kernel/lib.sh"
build_library
if [[ ! -f "$ROOT/library/spark/target/engine/approxgp-spark-0.1.0-SNAPSHOT.jar" \
    || -n "$(find "$ROOT/library/spark/src/main" "$ROOT/library/spark/pom.xml" "$(library_jar)" \
        -newer "$ROOT/library/spark/target/engine/approxgp-spark-0.1.0-SNAPSHOT.jar" -type f -print -quit)" ]]; then
  say "spark: building the module (mvn -B -ntp -q -pl library/spark -am package -DskipTests) ..."
  (cd "$ROOT" && mvn -B -ntp -q -pl library/spark -am package -DskipTests) || die "spark module build failed"
fi
find_jupyter
install_kernel
out="$ROOT/library/spark/target/notebook"
rm -rf "$out" && mkdir -p "$out"
start=$SECONDS
# a kernel that exits before its first reply (jupyter_client's port race: it picks the ports by binding and
# releasing them) is retried, as bin/reproduce does; a kernel that is alive but silent is a failure
for attempt in 1 2 3; do
  if "$JUPYTER" nbconvert --to notebook --execute --ExecutePreprocessor.kernel_name="$KERNEL_NAME" \
      --ExecutePreprocessor.startup_timeout=120 --ExecutePreprocessor.timeout=600 \
      --output-dir "$out" --output spark-engine "$here/spark-engine.ipynb" >"$out/log" 2>&1; then
    break
  fi
  grep -q 'Kernel died before replying to kernel_info' "$out/log" && [[ $attempt -lt 3 ]] \
    || { grep -v -e '^  File' -e '^    ' "$out/log" | tail -40 >&2; die "spark-engine.ipynb failed (log: $out/log)"; }
  say "kernel exited during start-up (attempt $attempt); retrying"
  cp "$out/log" "$out/log.attempt$attempt"
done
python3 - "$out/spark-engine.ipynb" <<'PY'
import json, sys
nb = json.load(open(sys.argv[1]))
text = "".join("".join(o.get("text", "")) for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"])
print(text.strip())
sys.exit(0 if "SPARK ROWS EQUAL LOCAL ROWS: true" in text and "spark on the kernel class path: false" in text else 1)
PY
say "spark-engine.ipynb: ok in $((SECONDS - start)) s"
