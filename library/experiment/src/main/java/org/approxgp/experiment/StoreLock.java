package org.approxgp.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Exclusive lock on one results file, held from {@link ResultStore#open} to {@link ResultStore#close}:
 * an OS file lock ({@link FileChannel#tryLock()}) on the empty file {@code <hash>.lock} beside the
 * results file, which keeps out other processes, plus an in-JVM set of held lock files, since file
 * locks are held per process (a second {@code tryLock} in the same JVM would throw
 * {@link OverlappingFileLockException} or, on another channel, behave platform-dependently).
 *
 * <p>Releasing deletes the {@code .lock} file first, while still holding it, so a finished or stopped run leaves
 * none behind. A JVM that is told to stop (SIGTERM, SIGINT, {@link System#exit}) releases every lock it holds from
 * a shutdown hook, after any row being appended under it is written whole ({@link #close} and the store's appends
 * share this object's monitor). A process killed outright (SIGKILL) leaves its {@code .lock} file, but the OS
 * releases the lock itself, so the store is never left locked, and the next run's release removes the file.
 *
 * <p>Because a releasing run deletes the file, a run that opened it just before may lock a file no longer at
 * {@code <hash>.lock}; {@link #acquire} therefore checks after locking that the path still names the file it
 * opened (by {@link BasicFileAttributes#fileKey()}, read right after opening and again after locking; the JVM
 * never opens the lock file a second time, which would drop its POSIX lock), and starts again if not.
 */
final class StoreLock implements AutoCloseable {

  private static final Set<Path> HELD_IN_THIS_JVM = ConcurrentHashMap.newKeySet();
  /** The locks this JVM holds, released by {@link #SHUTDOWN} if the JVM stops before their stores close. */
  private static final Set<StoreLock> OPEN = ConcurrentHashMap.newKeySet();
  /** Attempts of {@link #acquire} when the lock file keeps being replaced under it. */
  private static final int ATTEMPTS = 20;

  private static final Thread SHUTDOWN = new Thread(StoreLock::releaseAll, "approxgp-store-locks");

  static {
    try {
      Runtime.getRuntime().addShutdownHook(SHUTDOWN);
    } catch (IllegalStateException e) {
      // first used while the JVM is already stopping: acquire cannot be reached by a new run then
      // anyway
    }
  }

  private final Path lockFile;
  private final FileChannel channel;
  private final FileLock lock;
  private boolean released;

  private StoreLock(Path lockFile, FileChannel channel, FileLock lock) {
    this.lockFile = lockFile;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock {@code lockFile} guarding {@code resultsFile}, without waiting.
   *
   * @throws ResultsLockedException if this JVM or another process holds it
   */
  static StoreLock acquire(Path resultsFile, Path lockFile) {
    Path key = lockFile.toAbsolutePath().normalize();
    if (!HELD_IN_THIS_JVM.add(key)) {
      throw new ResultsLockedException(resultsFile, lockFile);
    }
    try {
      for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        StoreLock l = tryAcquire(key);
        if (l == null) {
          throw new ResultsLockedException(resultsFile, lockFile);
        }
        if (l != RETRY) {
          OPEN.add(l);
          return l;
        }
      }
      throw new ResultsLockedException(
          resultsFile, lockFile); // replaced under us every time: in busy use
    } catch (IOException | RuntimeException e) {
      HELD_IN_THIS_JVM.remove(key);
      if (e instanceof IOException io) {
        throw new UncheckedIOException("cannot lock " + lockFile, io);
      }
      throw (RuntimeException) e;
    }
  }

  /** Marks an attempt that locked a file no longer at the lock's path. */
  private static final StoreLock RETRY = new StoreLock(null, null, null);

  /** One attempt: the lock, null if another process holds it, or {@link #RETRY}. */
  private static StoreLock tryAcquire(Path lockFile) throws IOException {
    FileChannel ch =
        FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    boolean kept = false;
    try {
      Object opened = fileKey(lockFile);
      FileLock l;
      try {
        l = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        l = null;
      }
      if (l == null) {
        return null;
      }
      if (opened == null || !opened.equals(fileKey(lockFile))) {
        return RETRY; // its holder released it and deleted the file meanwhile (closing ch drops l)
      }
      kept = true;
      return new StoreLock(lockFile, ch, l);
    } finally {
      if (!kept) {
        ch.close();
      }
    }
  }

  /** The identity of the file at {@code p} (device and inode on Unix), or null if there is none. */
  private static Object fileKey(Path p) throws IOException {
    try {
      Object k = Files.readAttributes(p, BasicFileAttributes.class).fileKey();
      return k == null ? p.toRealPath() : k; // no file keys on this platform: the best we can do
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /**
   * Runs {@code write} unless the lock was released (the JVM is stopping): a store appends its rows through this,
   * so that no row is written after its lock is gone.
   *
   * @throws IllegalStateException if the lock was released
   */
  synchronized void whileHeld(IoAction write) throws IOException {
    if (released) {
      throw new IllegalStateException(
          "the lock " + lockFile + " was released (the JVM is stopping)");
    }
    write.run();
  }

  /** A write done under the lock. */
  @FunctionalInterface
  interface IoAction {
    void run() throws IOException;
  }

  /** Deletes the lock file and releases the lock (idempotent). */
  @Override
  public synchronized void close() {
    if (released) {
      return;
    }
    released = true;
    OPEN.remove(this);
    try {
      try {
        Files.deleteIfExists(lockFile); // while still held: no other run can hold this file now
      } finally {
        try {
          lock.release();
        } finally {
          channel.close();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot release " + lockFile, e);
    } finally {
      HELD_IN_THIS_JVM.remove(lockFile);
    }
  }

  /** The shutdown hook: releases every lock still held. */
  private static void releaseAll() {
    for (StoreLock l : new ArrayList<>(OPEN)) {
      try {
        l.close();
      } catch (RuntimeException e) {
        System.err.println("approxgp: " + Objects.toString(e.getMessage(), e.toString()));
      }
    }
  }
}
