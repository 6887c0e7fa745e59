package dev.fsm.store.embedded.owner;

import java.nio.file.Path;

/**
 * A separate process that takes a store's lock, says so, and holds it until stdin closes or it
 * is killed. With a second argument {@code line} it waits in the store's line for the lock,
 * printing each notice it is given as {@code notice: TEXT}.
 */
public final class LockHolder {

  private LockHolder() {}

  public static void main(String[] args) throws Exception {
    StoreWaiting waiting = args.length > 1 && args[1].equals("line")
        ? StoreWaiting.inLine(n -> {
          System.out.println("notice: " + n);
          System.out.flush();
        }, () -> false)
        : StoreWaiting.REFUSE;
    StoreLock lock = StoreLock.acquire(Path.of(args[0]), "lock holder", waiting);
    System.out.println("locked");
    System.out.flush();
    while (System.in.read() >= 0) {
      // Holds until stdin closes.
    }
    lock.close();
  }
}
