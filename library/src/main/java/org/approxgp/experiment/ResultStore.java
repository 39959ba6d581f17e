package org.approxgp.experiment;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Append-only results file {@code <root>/<experiment>/<hash>.jsonl}, one complete JSON object per
 * line, plus the sidecar {@code <hash>.config.txt} holding the config's class and canonical
 * string. Each appended line is written whole and flushed under a lock, so a killed process
 * leaves at most one partial last line; {@link #open} drops such a line before appending. Rows are
 * in the {@link JsonRows} dialect. The store holds an exclusive {@link StoreLock} on
 * {@code <hash>.lock} from {@link #open} to {@link #close}, so a second run of the same experiment and
 * config, in this JVM or another process, fails with {@link ResultsLockedException}.
 */
final class ResultStore implements AutoCloseable {

  private final Path file;
  private final Map<String, ResultRow> existing;
  private final OutputStream out;
  private final StoreLock lock;

  private ResultStore(Path file, Map<String, ResultRow> existing, OutputStream out, StoreLock lock) {
    this.file = file;
    this.existing = existing;
    this.out = out;
    this.lock = lock;
  }

  /**
   * Opens (creating if needed) the results file of {@code config}; {@code keyColumns} are the
   * experiment's key columns, stored in every line beside the trial id and dropped from the rows read back.
   */
  static ResultStore open(Path root, String experiment, Record config, List<String> keyColumns) {
    String canonical = ConfigHash.canonical(config);
    String hash = ConfigHash.hash(config);
    Path dir = root.resolve(experiment);
    Path file = dir.resolve(hash + ".jsonl");
    Path sidecar = dir.resolve(hash + ".config.txt");
    StoreLock lock = null;
    try {
      Files.createDirectories(dir);
      lock = StoreLock.acquire(file, dir.resolve(hash + ".lock"));
      String header = "# approxgp results: one JSON row per line in " + file.getFileName() + "\n"
          + "experiment: " + experiment + "\n"
          + "class: " + config.getClass().getName() + "\n"
          + "config: " + canonical + "\n";
      if (Files.exists(sidecar)) {
        String old = Files.readString(sidecar, StandardCharsets.UTF_8);
        if (!old.contains("config: " + canonical + "\n")) {
          throw new IllegalStateException("hash collision or edited sidecar: " + sidecar
              + " does not hold config " + canonical);
        }
      } else {
        Files.writeString(sidecar, header, StandardCharsets.UTF_8);
      }
      Map<String, ResultRow> rows = readAndRepair(file, keyColumns);
      OutputStream os = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      return new ResultStore(file, rows, os, lock);
    } catch (IOException | RuntimeException e) {
      if (lock != null) {
        lock.close();
      }
      if (e instanceof IOException io) {
        throw new UncheckedIOException("cannot open results " + file, io);
      }
      throw (RuntimeException) e;
    }
  }

  /** Reads complete lines; truncates a partial (unterminated or unparsable) last line. */
  private static Map<String, ResultRow> readAndRepair(Path file, List<String> keyColumns) throws IOException {
    Map<String, ResultRow> rows = new LinkedHashMap<>();
    if (!Files.exists(file)) {
      return rows;
    }
    byte[] bytes = Files.readAllBytes(file);
    String text = new String(bytes, StandardCharsets.UTF_8);
    int lastNewline = text.lastIndexOf('\n');
    String complete = lastNewline < 0 ? "" : text.substring(0, lastNewline + 1);
    String[] lines = complete.split("\n");
    long goodBytes = 0;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (line.isBlank()) {
        goodBytes += line.getBytes(StandardCharsets.UTF_8).length + 1;
        continue;
      }
      Map<String, Object> m;
      try {
        m = JsonRows.read(line);
      } catch (IllegalArgumentException e) {
        if (i == lines.length - 1) {
          break; // a torn last line (e.g. killed mid-write on a filesystem that reorders)
        }
        throw new IllegalStateException(file + ": corrupt line " + (i + 1) + ": " + e.getMessage());
      }
      Object id = m.remove(TrialKeys.TRIAL);
      if (!(id instanceof String trialId)) {
        throw new IllegalStateException(file + ": line " + (i + 1) + " has no trial id");
      }
      m.keySet().removeAll(keyColumns);
      rows.put(trialId, ResultRow.ofRaw(m));
      goodBytes += line.getBytes(StandardCharsets.UTF_8).length + 1;
    }
    if (goodBytes < bytes.length) {
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        ch.truncate(goodBytes);
      }
    }
    return rows;
  }

  Path file() {
    return file;
  }

  /** Rows already in the file when it was opened, by trial id. */
  Map<String, ResultRow> existing() {
    return existing;
  }

  /** Appends one complete line (trial id, key columns, results) and flushes it to the OS before returning. Thread-safe. */
  synchronized void append(String trialId, Map<String, Object> keyValues, ResultRow row) {
    LinkedHashMap<String, Object> m = new LinkedHashMap<>();
    m.put(TrialKeys.TRIAL, trialId);
    m.putAll(keyValues);
    m.putAll(row.values());
    byte[] line = (JsonRows.write(m) + "\n").getBytes(StandardCharsets.UTF_8);
    try {
      out.write(line);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to " + file, e);
    }
  }

  @Override
  public synchronized void close() {
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      lock.close();
    }
  }
}
