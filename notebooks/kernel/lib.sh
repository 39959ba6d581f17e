# shellcheck shell=bash
# Shared by bin/reproduce and bin/lab: build the library, find or install Jupyter, install the
# project's Java kernelspec. Source it with ROOT set to the project root; nothing here touches the user's
# global Jupyter configuration: the kernelspec is staged under $ROOT/library/cli/target/jupyter and installed into
# the Jupyter environment in use (the project's .venv, or an active virtual/conda environment).

KERNEL_GAV="${APPROXGP_KERNEL_GAV:-io.github.padreati:rapaio-jupyter-kernel:3.0.1}"
KERNEL_NAME="approxgp-java"
# the cli module: its JAR and target/lib (every other module's JAR, every dependency) are the kernel's class path
TARGET="$ROOT/library/cli/target"
JUPYTER_DIR="$TARGET/jupyter"
KERNEL_DIR="$JUPYTER_DIR/kernels/$KERNEL_NAME"
HOOKS_SRC="$ROOT/notebooks/kernel/hooks"
# JupyterLab's server sends one kernel_info_request when a browser connects to a new (or restarted) kernel
# and waits this long for the reply (its default is 60 s); past it the server connects anyway and re-sends the
# request every 0.5 s. Before KernelMain closed rapaio-jupyter-kernel 3.0.1's start-up races, a kernel
# could lose that request, and each such start cost the whole timeout; 30 s still leaves a slow JVM start on a
# loaded machine (seen: 6-12 s on 2 busy cores) time to answer.
KERNEL_INFO_TIMEOUT="${APPROXGP_KERNEL_INFO_TIMEOUT:-30}"

say() { printf '%s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# mvn -B -ntp -q in $ROOT with its output kept to a log shown (without Maven's bare ANSI resets, which -B and -q
# still print) only when it fails.
quiet_mvn() {
  local log rc=0
  log=$(mktemp)
  (cd "$ROOT" && mvn -B -ntp -q "$@") >"$log" 2>&1 || rc=$?
  if [[ $rc -ne 0 ]]; then sed 's/\x1b\[[0-9;]*m//g' "$log" >&2; fi
  rm -f "$log"
  return $rc
}

# 1. Build library/cli/target/approxgp-cli-*.jar and library/cli/target/lib/*.jar unless up to date.
build_library() {
  command -v mvn >/dev/null || die "Maven (mvn) is not on PATH; install it or use environment.yml"
  command -v java >/dev/null || die "java is not on PATH; install a JDK 17+ or use environment.yml"
  local jar
  jar=$(library_jar || true)
  # newer than the JAR: a pom, a main source or resource of any module, a committed data set
  if [[ -n "$jar" && -d "$TARGET/lib" ]] && [[ -z "$(find "$ROOT/pom.xml" "$ROOT/library" \
        $( [[ -d "$ROOT/datasets" ]] && echo "$ROOT/datasets" ) -path "$ROOT/library/*/target" -prune \
        -o -type f \( -name pom.xml -o -path '*/src/main/*' -o -path "$ROOT/datasets/*" \) -newer "$jar" -print -quit)" ]]; then
    say "library: up to date ($(basename "$jar"))"
    return
  fi
  say "library: building with Maven (mvn -B -ntp -q -pl library/cli -am package -DskipTests) ..."
  quiet_mvn -pl library/cli -am package -DskipTests || die "library build failed"
  library_jar >/dev/null || die "build produced no library/cli/target/approxgp-cli-*.jar"
}

library_jar() {
  local j
  for j in "$TARGET"/approxgp-cli-*.jar; do
    [[ -f "$j" && "$j" != *-sources.jar && "$j" != *-javadoc.jar && "$j" != *-tests.jar ]] && { echo "$j"; return 0; }
  done
  return 1
}

# 2. Jupyter: the active virtual or conda environment's, when one is active and has JupyterLab (if $1 = lab) and
# nbconvert; else the project's own $ROOT/.venv, made on first use. The kernelspec is installed into that
# environment (jupyter kernelspec install --sys-prefix), where its Jupyter looks without any JUPYTER_PATH; a
# system-wide Jupyter is never written to.
find_jupyter() {
  local need_lab="${1:-}" env_prefix="${VIRTUAL_ENV:-${CONDA_PREFIX:-}}"
  if [[ -n "$env_prefix" && -x "$env_prefix/bin/jupyter" && "$env_prefix" != "$ROOT/.venv" ]] \
      && "$env_prefix/bin/jupyter" nbconvert --version >/dev/null 2>&1 \
      && { [[ -z "$need_lab" ]] || "$env_prefix/bin/jupyter" lab --version >/dev/null 2>&1; }; then
    JUPYTER="$env_prefix/bin/jupyter"
    say "jupyter: using the active environment's, $JUPYTER"
    return
  fi
  local venv="$ROOT/.venv"
  if [[ ! -f "$venv/.approxgp-jupyter-ok" ]]; then
    command -v python3 >/dev/null || die "no python3 to make $venv (Debian: apt-get install python3 python3-venv)"
    say "jupyter: installing JupyterLab + nbconvert into $venv (once; log: $venv/pip-install.log) ..."
    [[ -x "$venv/bin/python" ]] || python3 -m venv "$venv" >/dev/null \
      || die "python3 -m venv $venv failed (Debian: apt-get install python3-venv)"
    local pip_opts=(--disable-pip-version-check)
    # Fail fast on an unreachable index unless the user configured pip themselves.
    [[ -n "${PIP_RETRIES:-}" ]] || pip_opts+=(--retries 0 --timeout 5)
    "$venv/bin/python" -m pip install "${pip_opts[@]}" jupyterlab nbconvert ipykernel >"$venv/pip-install.log" 2>&1 \
      || { tail -20 "$venv/pip-install.log" >&2; die "pip install into $venv failed (log: $venv/pip-install.log)"; }
    touch "$venv/.approxgp-jupyter-ok"
  fi
  JUPYTER="$venv/bin/jupyter"
  say "jupyter: using $JUPYTER"
}

# 3. Kernel jar from Maven Central (via Maven), display hooks jar, kernelspec.
install_kernel() {
  local jar java_bin kernel_jar hooks_jar cp rjk_cp
  jar=$(library_jar) || die "library jar missing; build first"
  java_bin="${JAVA_HOME:+$JAVA_HOME/bin/java}"
  [[ -n "$java_bin" && -x "$java_bin" ]] || java_bin=$(command -v java)
  local a="${KERNEL_GAV#*:}"; a="${a%%:*}"; local v="${KERNEL_GAV##*:}"
  kernel_jar="$TARGET/kernel/$a-$v.jar"
  if [[ ! -f "$kernel_jar" ]]; then
    say "kernel: fetching $KERNEL_GAV with Maven ..."
    quiet_mvn -N dependency:copy -Dartifact="$KERNEL_GAV" -DoutputDirectory="$TARGET/kernel" -Dmdep.overWriteIfNewer=true \
      || die "could not fetch $KERNEL_GAV from Maven Central"
  fi
  hooks_jar="$TARGET/kernel/approxgp-display-rapaio.jar"
  if [[ ! -f "$hooks_jar" || -n "$(find "$HOOKS_SRC/rapaio" "$jar" -newer "$hooks_jar" -print -quit)" ]]; then
    say "kernel: compiling display hooks for rapaio-jupyter-kernel ..."
    local classes="$TARGET/kernel/hooks-rapaio"
    rm -rf "$classes" && mkdir -p "$classes"
    # javac's warnings (sun.misc.Signal is internal API, used on purpose) go to a log, shown only on failure
    javac --release 17 -nowarn -d "$classes" -cp "$kernel_jar:$jar:$TARGET/lib/*" \
      $(find "$HOOKS_SRC/rapaio" -name '*.java') >"$classes.log" 2>&1 \
      || { cat "$classes.log" >&2; die "compiling display hooks failed"; }
    cp -r "$HOOKS_SRC/rapaio/META-INF" "$classes/"
    (cd "$classes" && jar cf "$hooks_jar" .) || die "jar of display hooks failed"
  fi
  check_jjava_hooks "$jar"
  # The kernel JVM's own class path holds the library, its deps and the hooks, so the kernel's
  # ServiceLoader sees the hooks; RJK_CLASSPATH (';'-separated) puts the same jars on the JShell
  # compiler's class path so cells can import org.approxgp.* without any magic.
  cp="$kernel_jar:$jar:$TARGET/lib/*:$hooks_jar"
  rjk_cp="$jar"
  local f
  for f in "$TARGET"/lib/*.jar; do rjk_cp+=";$f"; done
  mkdir -p "$KERNEL_DIR"
  # KernelMain: rapaio's start with its start-up races closed, and SIGINT interrupts (hooks/rapaio/)
  local launcher="$ROOT/notebooks/kernel/run-kernel.sh" main=org.approxgp.report.display.rapaio.KernelMain
  local imode=signal
  # The spark engine (Runner.defaults().withEngine("spark")) is not on the class path: the library loads
  # APPROXGP_SPARK_CLASSPATH (library/spark/target/engine, made by 'mvn -pl library/spark -am package') through a class
  # loader of its own only when a cell chooses it. The JVM gets Spark's --add-opens flags (permissions
  # only; they load nothing).
  local spark_flags="-XX:+IgnoreUnrecognizedVMOptions"
  for f in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util java.util.concurrent \
      java.util.concurrent.atomic jdk.internal.ref sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
    spark_flags+=" --add-opens=java.base/$f=ALL-UNNAMED"
  done
  spark_flags+=" -Djdk.reflect.useDirectMethodHandle=false -Dio.netty.tryReflectionSetAccessible=true"
  python3 - "$KERNEL_DIR/kernel.json" "$launcher" "$java_bin" "$cp" "$rjk_cp" "$main" "$imode" \
      "$spark_flags" "$ROOT/library/spark/target/engine" <<'PY'
import json, sys
path, launcher, java, cp, rjk_cp, main, imode, spark_flags, spark_cp = sys.argv[1:]
spec = {
    "argv": [launcher, java, "-Djava.awt.headless=true", "-Dslf4j.internal.verbosity=ERROR",
             *spark_flags.split(), "-cp", cp, main, "{connection_file}"],
    "display_name": "Java (approxgp)",
    "language": "java",
    "interrupt_mode": imode,
    "env": {"RJK_CLASSPATH": rjk_cp, "RJK_TIMEOUT_MILLIS": "-1",
            "RJK_COMPILER_OPTIONS": "", "RJK_INIT_SCRIPT": "", "APPROXGP_SPARK_CLASSPATH": spark_cp},
    "metadata": {"generated_by": "approxgp notebooks/kernel/lib.sh"},
}
with open(path, "w") as f:
    json.dump(spec, f, indent=1)
PY
  # into the environment of $JUPYTER (find_jupyter), where its Jupyter finds it: `jupyter lab`, `jupyter nbconvert
  # --execute` with that environment activated, no JUPYTER_PATH
  [[ -n "${JUPYTER:-}" ]] || die "install_kernel needs find_jupyter first"
  "$JUPYTER" kernelspec install --sys-prefix --replace --name "$KERNEL_NAME" "$KERNEL_DIR" >/dev/null 2>&1 \
    || die "jupyter kernelspec install --sys-prefix $KERNEL_DIR failed"
  say "kernel: $KERNEL_NAME ($KERNEL_GAV) installed into $(dirname "$(dirname "$JUPYTER")")/share/jupyter/kernels"
}

# The JJava display hooks compile against JJava's published API (org.dflib.jjava:jjava-jupyter, on Maven Central;
# its kernel jar is not), so a change to the library that breaks them fails here, not on a user's machine.
# Compiled into a scratch directory once per change of the hooks or the library.
JJAVA_API_GAV="org.dflib.jjava:jjava-jupyter:1.0-a6"
check_jjava_hooks() {
  local jar="$1" api="$TARGET/kernel/jjava-jupyter-1.0-a6.jar" stamp="$TARGET/kernel/hooks-jjava-api.ok"
  if [[ -f "$stamp" && -z "$(find "$HOOKS_SRC/jjava" "$jar" -newer "$stamp" -print -quit)" ]]; then
    return 0
  fi
  if [[ ! -f "$api" ]]; then
    quiet_mvn -N dependency:copy -Dartifact="$JJAVA_API_GAV" -DoutputDirectory="$TARGET/kernel" \
      || die "could not fetch $JJAVA_API_GAV from Maven Central"
  fi
  local classes="$TARGET/kernel/hooks-jjava-api"
  rm -rf "$classes" && mkdir -p "$classes"
  javac --release 17 -nowarn -d "$classes" -cp "$api:$jar:$TARGET/lib/*" $(find "$HOOKS_SRC/jjava" -name '*.java') \
    >"$classes.log" 2>&1 || { cat "$classes.log" >&2; die "the JJava display hooks do not compile against $JJAVA_API_GAV"; }
  touch "$stamp"
}

# 3b. The JJava kernel instead (bin/lab --kernel jjava, bin/reproduce --kernel jjava). $1 is a directory
# holding JJava's jjava.jar (its shaded kernel jar; e.g. an unzipped jjava-*-kernelspec.zip), or a Jupyter
# data directory with such a kernel under kernels/*/. Compiles the JJava display hooks against that jar and
# writes the kernelspec approxgp-jjava, which runs jjava.jar with the library, its deps and the hooks on
# JJAVA_CLASSPATH. Its JUPYTER_PATH entry ($TARGET/jupyter-jjava) holds no approxgp-java, so JupyterLab, not
# finding the notebooks' kernelspec (approxgp-java), starts the one kernel of their language (java) there.
# Sets KERNEL_NAME. The user's JJava is not modified.
install_jjava_kernel() {
  local home="$1" jar java_bin kjar="" d hooks_jar cp f
  [[ -d "$home" ]] || die "--jjava-home $home is not a directory"
  for d in "$home" "$home"/kernels/*; do
    if [[ -f "$d/jjava.jar" ]]; then kjar="$d/jjava.jar"; break; fi
  done
  [[ -n "$kjar" ]] || die "no jjava.jar in $home or $home/kernels/*/ (give the directory of JJava's kernelspec)"
  kjar=$(cd "$(dirname "$kjar")" && pwd)/jjava.jar
  jar=$(library_jar) || die "library jar missing; build first"
  java_bin="${JAVA_HOME:+$JAVA_HOME/bin/java}"
  [[ -n "$java_bin" && -x "$java_bin" ]] || java_bin=$(command -v java)
  hooks_jar="$TARGET/kernel/approxgp-display-jjava.jar"
  mkdir -p "$TARGET/kernel"
  if [[ ! -f "$hooks_jar" || -n "$(find "$HOOKS_SRC/jjava" "$jar" "$kjar" -newer "$hooks_jar" -print -quit)" ]]; then
    say "kernel: compiling display hooks for JJava ($kjar) ..."
    local classes="$TARGET/kernel/hooks-jjava"
    rm -rf "$classes" && mkdir -p "$classes"
    javac --release 17 -nowarn -d "$classes" -cp "$kjar:$jar:$TARGET/lib/*" \
      $(find "$HOOKS_SRC/jjava" -name '*.java') >"$classes.log" 2>&1 \
      || { cat "$classes.log" >&2; die "compiling JJava display hooks failed"; }
    cp -r "$HOOKS_SRC/jjava/META-INF" "$classes/"
    (cd "$classes" && jar cf "$hooks_jar" .) || die "jar of JJava display hooks failed"
  fi
  # JJava adds JJAVA_CLASSPATH to JShell's class loader and loads extensions (the hooks) through a child of
  # it, so cells and hooks share one copy of each class. ':'-separated, every jar named (no globs).
  cp="$jar:$hooks_jar"
  for f in "$TARGET"/lib/*.jar; do cp+=":$f"; done
  KERNEL_NAME="approxgp-jjava"
  local jdir="$TARGET/jupyter-jjava" dir="$TARGET/jupyter-jjava/kernels/$KERNEL_NAME"
  mkdir -p "$dir"
  # jjava-launcher.jar only re-executes `java [JJAVA_JVM_OPTS] --add-opens jdk.jshell/jdk.jshell=ALL-UNNAMED
  # -jar jjava.jar`; the kernelspec runs that command directly, with our JVM and the headless flag.
  python3 - "$dir/kernel.json" "$java_bin" "$kjar" "$cp" <<'PY'
import json, sys
path, java, kjar, cp = sys.argv[1:]
spec = {
    "argv": [java, "-Djava.awt.headless=true", "--add-opens", "jdk.jshell/jdk.jshell=ALL-UNNAMED",
             "-jar", kjar, "{connection_file}"],
    "display_name": "Java (approxgp, JJava)",
    "language": "java",
    "interrupt_mode": "message",
    "env": {"JJAVA_CLASSPATH": cp},
    "metadata": {"generated_by": "approxgp notebooks/kernel/lib.sh"},
}
with open(path, "w") as f:
    json.dump(spec, f, indent=1)
PY
  export JUPYTER_PATH="$jdir${JUPYTER_PATH:+:$JUPYTER_PATH}"
  say "kernel: $KERNEL_NAME (JJava $kjar) installed in $dir (via JUPYTER_PATH)"
}
