package org.approxgp.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Exclusive lock on one results file, held from {@link ResultStore#open} to {@link ResultStore#close}:
 * an OS file lock ({@link FileChannel#tryLock()}) on the empty file {@code <hash>.lock} beside the
 * results file, which keeps out other processes, plus an in-JVM set of held lock files, since file
 * locks are held per process (a second {@code tryLock} in the same JVM would throw
 * {@link OverlappingFileLockException} or, on another channel, behave platform-dependently). The OS
 * releases the file lock when the process dies, so a killed run never leaves the store locked; the
 * {@code .lock} file itself stays and is harmless.
 */
final class StoreLock implements AutoCloseable {

  private static final Set<Path> HELD_IN_THIS_JVM = ConcurrentHashMap.newKeySet();

  private final Path lockFile;
  private final FileChannel channel;
  private final FileLock lock;

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
    FileChannel ch = null;
    try {
      ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock l;
      try {
        l = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        l = null;
      }
      if (l == null) {
        throw new ResultsLockedException(resultsFile, lockFile);
      }
      return new StoreLock(key, ch, l);
    } catch (IOException | RuntimeException e) {
      HELD_IN_THIS_JVM.remove(key);
      if (ch != null) {
        try {
          ch.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      if (e instanceof IOException io) {
        throw new UncheckedIOException("cannot lock " + lockFile, io);
      }
      throw (RuntimeException) e;
    }
  }

  /** Releases the lock (idempotent only through the owning store, which closes once). */
  @Override
  public void close() {
    try {
      try {
        lock.release();
      } finally {
        channel.close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot release " + lockFile, e);
    } finally {
      HELD_IN_THIS_JVM.remove(lockFile);
    }
  }
}
