package org.approxgp.experiment;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Append-only results file {@code <root>/<experiment>/<hash>.jsonl}, one complete JSON object per
 * line, plus the sidecar {@code <hash>.config.txt} holding the config's class and canonical
 * string without its {@link Selects} components ({@link ConfigHash#storeCanonical}): configs that select
 * different trials of one experiment share the store, and a run returns the rows of its own trials. Each
 * appended line is written whole and flushed under a lock, so a killed process leaves at most one partial last
 * line (no newline); {@link #open} drops such a line before appending. A
 * complete line that is not a row is never dropped: see {@link StoreCorruptException}. Rows are
 * in the {@link JsonRows} dialect. The store holds an exclusive {@link StoreLock} on
 * {@code <hash>.lock} from {@link #open} to {@link #close}, so a second run of the same experiment and
 * config, in this JVM or another process, fails with {@link ResultsLockedException}.
 *
 * <p>A shipped store keeps its rows gzip-compressed in {@code <hash>.jsonl.gz} ({@link #compress}); they are read
 * first, then {@code <hash>.jsonl}, whose rows (appended since) win for a trial in both. The compressed file is
 * never appended to: a line in it that is not a row, or a file that is not complete gzip (truncated in transit),
 * is a {@link StoreCorruptException}, and a repairing open keeps its readable rows (see {@link #open}).
 *
 * <p>{@link #openReadOnly} reads a store without changing anything on disk: no lock, no directory, no sidecar,
 * and a torn last line is skipped rather than cut off (a stored-only run, a verification).
 */
final class ResultStore implements AutoCloseable {

  private final Path file;
  private final Map<String, ResultRow> existing;
  private final OutputStream out;
  private final StoreLock lock;

  private ResultStore(
      Path file, Map<String, ResultRow> existing, OutputStream out, StoreLock lock) {
    this.file = file;
    this.existing = existing;
    this.out = out;
    this.lock = lock;
  }

  /**
   * Opens (creating if needed) the results file of {@code config}; {@code keyColumns} are the
   * experiment's key columns, stored in every line beside the trial id and dropped from the rows read back.
   *
   * @throws StoreCorruptException if the file holds a complete line that is not a stored row
   */
  static ResultStore open(Path root, String experiment, Record config, List<String> keyColumns) {
    return open(root, experiment, config, keyColumns, false);
  }

  /**
   * As {@link #open(Path, String, Record, List)}.
   *
   * @param repair move complete lines that are not stored rows to the quarantine file beside the store (and
   *               recompute those trials) instead of refusing; a damaged {@code <hash>.jsonl.gz} has its bytes
   *               appended to {@code <hash>.jsonl.gz.quarantine} and is rewritten with the rows still readable
   * @throws StoreCorruptException if the file holds such a line and {@code repair} is false
   */
  static ResultStore open(
      Path root, String experiment, Record config, List<String> keyColumns, boolean repair) {
    String canonical = ConfigHash.storeCanonical(config);
    String hash = ConfigHash.storeHash(config);
    Path dir = root.resolve(experiment);
    Path file = dir.resolve(hash + StoreFiles.ROWS);
    Path sidecar = dir.resolve(hash + StoreFiles.SIDECAR);
    StoreLock lock = null;
    try {
      Files.createDirectories(dir);
      lock = StoreLock.acquire(file, dir.resolve(hash + StoreFiles.LOCK));
      String header =
          StoreFiles.SIDECAR_HEADER + " one JSON row per line in " + file.getFileName() + "\n"
              + "experiment: " + experiment + "\n"
              + "class: " + config.getClass().getName() + "\n"
              + "config: " + canonical + "\n";
      if (Files.exists(sidecar)) {
        checkSidecar(sidecar, canonical);
      } else {
        Files.writeString(sidecar, header, StandardCharsets.UTF_8);
      }
      Map<String, ResultRow> rows =
          readCompressed(dir.resolve(hash + StoreFiles.ROWS_GZ), keyColumns, repair);
      rows.putAll(read(file, keyColumns, repair, false));
      OutputStream os =
          Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      return new ResultStore(file, rows, os, lock);
    } catch (IOException | RuntimeException e) {
      if (lock != null) {
        lock.close();
      }
      if (e instanceof IOException io) {
        throw new UncheckedIOException("cannot open results " + file + ": " + reason(io), io);
      }
      throw (RuntimeException) e;
    }
  }

  /**
   * The rows stored for {@code config}, read without changing anything: no lock is taken and nothing is created,
   * cut or rewritten, so a missing store (or results root) reads as empty. A torn last line is skipped; a
   * complete line that is not a row is refused as by {@link #open}. The store returned cannot be appended to,
   * and its {@link #close} does nothing. Without the lock it may miss rows a concurrent run appends meanwhile.
   *
   * @throws StoreCorruptException if a stored line is not a row, or the compressed file is damaged
   */
  static ResultStore openReadOnly(
      Path root, String experiment, Record config, List<String> keyColumns) {
    String hash = ConfigHash.storeHash(config);
    Path dir = root.resolve(experiment);
    Path file = dir.resolve(hash + StoreFiles.ROWS);
    Path sidecar = dir.resolve(hash + StoreFiles.SIDECAR);
    try {
      if (Files.exists(sidecar)) {
        checkSidecar(sidecar, ConfigHash.storeCanonical(config));
      }
      Map<String, ResultRow> rows =
          readCompressed(dir.resolve(hash + StoreFiles.ROWS_GZ), keyColumns, false);
      rows.putAll(read(file, keyColumns, false, true));
      return new ResultStore(file, rows, null, null);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read results " + file + ": " + reason(e), e);
    }
  }

  /** Refuses a sidecar that does not name {@code canonical}. */
  private static void checkSidecar(Path sidecar, String canonical) throws IOException {
    String old = Files.readString(sidecar, StandardCharsets.UTF_8);
    if (!old.contains("config: " + canonical + "\n")) {
      throw new IllegalStateException(
          "hash collision or edited sidecar: " + sidecar + " does not hold config " + canonical);
    }
  }

  /** An I/O failure in a few words (a file system's reason, e.g. "Read-only file system", else the message). */
  static String reason(IOException e) {
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
      return f.getReason();
    }
    return e.getMessage();
  }

  /**
   * Reads the stored rows. A torn last line (no newline: the process was killed mid-write) is cut off. Every
   * complete line must be a row with a trial id: otherwise the store is refused, or with {@code repair} such
   * lines are first appended to the quarantine file (flushed to disk) and the store is rewritten without them
   * through a temporary sibling and an atomic rename, so no line exists nowhere at any moment. With
   * {@code readOnly} the file is left as it is: the torn tail is skipped, not cut off.
   */
  private static Map<String, ResultRow> read(
      Path file, List<String> keyColumns, boolean repair, boolean readOnly) throws IOException {
    Map<String, ResultRow> rows = new LinkedHashMap<>();
    if (!Files.exists(file)) {
      return rows;
    }
    byte[] bytes = Files.readAllBytes(file);
    int end = bytes.length;
    while (end > 0 && bytes[end - 1] != '\n') {
      end--; // the torn tail, if any, is bytes[end, length)
    }
    ByteArrayOutputStream kept = new ByteArrayOutputStream(end);
    ByteArrayOutputStream bad = new ByteArrayOutputStream();
    int firstBad = 0;
    int badCount = 0;
    String firstReason = null;
    int lineNo = 0;
    for (int from = 0; from < end; ) {
      int nl = from;
      while (bytes[nl] != '\n') {
        nl++;
      }
      lineNo++;
      String line = new String(bytes, from, nl - from, StandardCharsets.UTF_8);
      String problem = line.isBlank() ? null : parse(line, keyColumns, rows);
      if (problem == null) {
        kept.write(bytes, from, nl + 1 - from);
      } else {
        bad.write(bytes, from, nl + 1 - from);
        if (badCount++ == 0) {
          firstBad = lineNo;
          firstReason = problem;
        }
      }
      from = nl + 1;
    }
    if (badCount > 0 && !repair) {
      throw new StoreCorruptException(file, firstBad, badCount, firstReason);
    }
    if (badCount > 0) {
      Path quarantine = StoreFiles.quarantineOf(file);
      try (FileChannel q = FileChannel.open(
          quarantine,
          StandardOpenOption.CREATE,
          StandardOpenOption.WRITE,
          StandardOpenOption.APPEND)) {
        q.write(java.nio.ByteBuffer.wrap(bad.toByteArray()));
        q.force(true);
      }
      Path tmp = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp");
      try {
        try (FileChannel t = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
          t.write(java.nio.ByteBuffer.wrap(kept.toByteArray()));
          t.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } else if (end < bytes.length && !readOnly) {
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        ch.truncate(end);
      }
    }
    return rows;
  }

  /**
   * The rows of a compressed store file (none if it does not exist); every line must be a row and the file complete
   * gzip. With {@code repair}, a damaged file (a truncated or corrupted stream, or lines that are not rows) keeps
   * its readable rows: its bytes are first appended to {@code <hash>.jsonl.gz.quarantine} (flushed to disk), then
   * it is rewritten with those rows alone through a temporary sibling and an atomic rename (removed if none is
   * left), so that the lost trials are computed again and appended to {@code <hash>.jsonl}.
   *
   * @throws StoreCorruptException if the file is damaged and {@code repair} is false
   */
  private static Map<String, ResultRow> readCompressed(
      Path gz, List<String> keyColumns, boolean repair) throws IOException {
    Map<String, ResultRow> rows = new LinkedHashMap<>();
    if (!Files.exists(gz)) {
      return rows;
    }
    // inflated in one piece, so that what precedes a damaged part of the stream is kept whatever a
    // reader buffers
    java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
    String streamProblem = null;
    try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(gz))) {
      byte[] buf = new byte[1 << 16];
      for (int n; (n = in.read(buf)) >= 0; ) {
        text.write(buf, 0, n);
      }
    } catch (java.util.zip.ZipException | java.io.EOFException e) {
      streamProblem = "not a complete gzip file: " + e.getMessage();
    }
    List<String> kept = new java.util.ArrayList<>();
    int lineNo = 0;
    int firstBad = 0;
    int badCount = 0;
    String firstReason = null;
    List<String> lines = text.toString(StandardCharsets.UTF_8).lines().toList();
    // a stream cut short ends in a partial line, which is part of what was lost
    int complete = streamProblem == null ? lines.size() : Math.max(0, lines.size() - 1);
    for (String line : lines.subList(0, complete)) {
      lineNo++;
      String problem = line.isBlank() ? null : parse(line, keyColumns, rows);
      if (problem == null) {
        kept.add(line);
      } else if (badCount++ == 0) {
        firstBad = lineNo;
        firstReason = problem;
      }
    }
    if (streamProblem != null && badCount++ == 0) {
      firstBad = lineNo + 1;
      firstReason = streamProblem;
    }
    if (badCount == 0) {
      return rows;
    }
    if (!repair) {
      throw StoreCorruptException.compressed(gz, firstBad, firstReason);
    }
    try (FileChannel q = FileChannel.open(
        StoreFiles.quarantineOf(gz),
        StandardOpenOption.CREATE,
        StandardOpenOption.WRITE,
        StandardOpenOption.APPEND)) {
      q.write(java.nio.ByteBuffer.wrap(Files.readAllBytes(gz)));
      q.force(true);
    }
    if (kept.isEmpty()) {
      Files.delete(gz);
    } else {
      writeGzip(gz, kept);
    }
    return rows;
  }

  /** A reader of the text lines in gzip file {@code gz}. */
  private static java.io.BufferedReader gzipReader(Path gz) throws IOException {
    return new java.io.BufferedReader(new java.io.InputStreamReader(
        new java.util.zip.GZIPInputStream(Files.newInputStream(gz)), StandardCharsets.UTF_8));
  }

  /**
   * Writes {@code lines} (each followed by a newline) to {@code gz} as gzip without a timestamp (the same lines give
   * the same bytes), through a temporary sibling and an atomic rename.
   */
  private static void writeGzip(Path gz, java.util.Collection<String> lines) throws IOException {
    Path tmp = Files.createTempFile(gz.getParent(), "." + gz.getFileName(), ".tmp");
    try {
      try (java.io.OutputStream out =
          new java.util.zip.GZIPOutputStream(Files.newOutputStream(tmp), 1 << 16) {
            {
              def.setLevel(java.util.zip.Deflater.BEST_COMPRESSION);
            }
          }) {
        for (String line : lines) {
          out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        }
      }
      Files.move(tmp, gz, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * Compresses the store of {@code experiment} and {@code config} under {@code root} for shipping: every row of
   * {@code <hash>.jsonl.gz} and {@code <hash>.jsonl} (the latter winning), in the order first stored, written as
   * {@code <hash>.jsonl.gz} (gzip, no timestamp: the same rows give the same bytes) through a temporary file and an
   * atomic rename; then {@code <hash>.jsonl} is removed. Holds the store's lock throughout.
   *
   * @return the compressed file, or null when the store has no rows
   * @throws ResultsLockedException if a run holds the store
   */
  static Path compress(Path root, String experiment, Record config) {
    String hash = ConfigHash.storeHash(config);
    Path dir = root.resolve(experiment);
    Path file = dir.resolve(hash + StoreFiles.ROWS);
    Path gz = dir.resolve(hash + StoreFiles.ROWS_GZ);
    if (!Files.exists(file) && !Files.exists(gz)) {
      return null;
    }
    try (StoreLock lock = StoreLock.acquire(file, dir.resolve(hash + StoreFiles.LOCK))) {
      // the raw lines, keyed by trial id, compressed rows first and later lines replacing earlier
      // ones
      Map<String, String> lines = new LinkedHashMap<>();
      Map<String, ResultRow> scratch = new LinkedHashMap<>();
      List<String> all = new java.util.ArrayList<>();
      if (Files.exists(gz)) {
        try (java.io.BufferedReader in = gzipReader(gz)) {
          for (String line; (line = in.readLine()) != null; ) {
            all.add(line);
          }
        } catch (java.util.zip.ZipException | java.io.EOFException e) {
          throw StoreCorruptException.compressed(
              gz, all.size() + 1, "not a complete gzip file: " + e.getMessage());
        }
      }
      if (Files.exists(file)) {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int end = text.lastIndexOf('\n') + 1; // a torn last line is not a row
        all.addAll(text.substring(0, end).lines().toList());
      }
      for (String line : all) {
        if (line.isBlank()) {
          continue;
        }
        String problem = parse(line, List.of(), scratch);
        if (problem != null) {
          throw new StoreCorruptException(
              file, 0, 1, problem + " (repair the store with a run first)");
        }
        lines.put((String) JsonRows.read(line).get(TrialKeys.TRIAL), line);
      }
      if (lines.isEmpty()) {
        return null;
      }
      writeGzip(gz, lines.values());
      Files.deleteIfExists(file);
      return gz;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot compress " + file, e);
    }
  }

  /** Adds the row of {@code line} to {@code rows}; returns null, or why the line is not a stored row. */
  private static String parse(String line, List<String> keyColumns, Map<String, ResultRow> rows) {
    Map<String, Object> m;
    try {
      m = JsonRows.read(line);
    } catch (IllegalArgumentException e) {
      return "does not parse: " + e.getMessage();
    }
    Object id = m.remove(TrialKeys.TRIAL);
    if (!(id instanceof String trialId)) {
      return "no trial id";
    }
    m.keySet().removeAll(keyColumns);
    rows.put(trialId, ResultRow.ofRaw(m));
    return null;
  }

  Path file() {
    return file;
  }

  /** Rows already in the file when it was opened, by trial id. */
  Map<String, ResultRow> existing() {
    return existing;
  }

  /**
   * Appends one complete line (trial id, key columns, results) and flushes it to the OS before returning.
   * Thread-safe.
   *
   * @throws IllegalStateException if the store is read-only, or its lock was released because the JVM is stopping
   */
  synchronized void append(String trialId, Map<String, Object> keyValues, ResultRow row) {
    if (out == null) {
      throw new IllegalStateException("results " + file + " were opened read-only");
    }
    LinkedHashMap<String, Object> m = new LinkedHashMap<>();
    m.put(TrialKeys.TRIAL, trialId);
    m.putAll(keyValues);
    m.putAll(row.values());
    byte[] line = (JsonRows.write(m) + "\n").getBytes(StandardCharsets.UTF_8);
    try {
      lock.whileHeld(() -> {
        out.write(line);
        out.flush();
      });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to " + file, e);
    }
  }

  @Override
  public synchronized void close() {
    if (out == null) {
      return; // read-only: nothing held
    }
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      lock.close();
    }
  }
}
