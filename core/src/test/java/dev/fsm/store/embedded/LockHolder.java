package dev.fsm.store.embedded;

import java.nio.file.Path;

/** A separate process that takes a store's lock, says so, and holds it until killed. */
public final class LockHolder {

  private LockHolder() {}

  public static void main(String[] args) throws Exception {
    StoreLock lock = StoreLock.acquire(Path.of(args[0]), "lock holder");
    System.out.println("locked");
    System.out.flush();
    System.in.read();
    lock.close();
  }
}
