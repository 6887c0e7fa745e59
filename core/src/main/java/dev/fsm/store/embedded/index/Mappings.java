package dev.fsm.store.embedded.index;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.IdentityHashMap;
import java.util.Map;
import org.mapdb.volume.CleanerUtil;

/**
 * Maps stretches of a file copy-on-write and unmaps them again on demand, which Java 17 has no
 * supported way to do. On Java 22 and later each mapping gets an arena of its own (the foreign
 * memory API, reached by reflection since fsm compiles for 17) and closing the arena unmaps it;
 * before that, MapDB's cleaner hack (sun.misc.Unsafe::invokeCleaner), which Java 24 and later
 * warn about on every run. Not thread-safe.
 */
abstract class Mappings {

  /** The way this JVM supports. */
  static Mappings forThisJvm() {
    if (Runtime.version().feature() >= 22) {
      try {
        return new Arenas();
      } catch (ReflectiveOperationException e) {
        // Fall back to the cleaner.
      }
    }
    return new Cleaner();
  }

  /** Maps {@code size} bytes of {@code channel} from {@code offset}, copy-on-write. */
  abstract ByteBuffer map(FileChannel channel, long offset, int size) throws IOException;

  /** Unmaps a buffer {@link #map} gave; it must not be used again. */
  abstract void unmap(ByteBuffer mapped);

  private static final class Cleaner extends Mappings {

    @Override
    ByteBuffer map(FileChannel channel, long offset, int size) throws IOException {
      return channel.map(FileChannel.MapMode.PRIVATE, offset, size);
    }

    @Override
    void unmap(ByteBuffer mapped) {
      try {
        CleanerUtil.freeBuffer(mapped);
      } catch (IOException e) {
        // Left to the garbage collector, which unmaps it too, later.
      }
    }
  }

  private static final class Arenas extends Mappings {

    private final MethodHandle ofShared;
    private final MethodHandle mapInArena;
    private final MethodHandle asByteBuffer;
    private final MethodHandle close;
    private final Map<ByteBuffer, Object> arenas = new IdentityHashMap<>();

    Arenas() throws ReflectiveOperationException {
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      Class<?> arena = Class.forName("java.lang.foreign.Arena");
      Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
      ofShared = lookup.findStatic(arena, "ofShared", MethodType.methodType(arena));
      mapInArena = lookup.findVirtual(FileChannel.class, "map", MethodType.methodType(segment,
          FileChannel.MapMode.class, long.class, long.class, arena));
      asByteBuffer = lookup.findVirtual(segment, "asByteBuffer",
          MethodType.methodType(ByteBuffer.class));
      close = lookup.findVirtual(arena, "close", MethodType.methodType(void.class));
    }

    @Override
    ByteBuffer map(FileChannel channel, long offset, int size) throws IOException {
      try {
        Object arena = ofShared.invoke();
        Object segment = mapInArena.invoke(channel, FileChannel.MapMode.PRIVATE, offset,
            (long) size, arena);
        ByteBuffer mapped = (ByteBuffer) asByteBuffer.invoke(segment);
        arenas.put(mapped, arena);
        return mapped;
      } catch (IOException | RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new IOException("cannot map " + size + " bytes at " + offset, e);
      }
    }

    @Override
    void unmap(ByteBuffer mapped) {
      Object arena = arenas.remove(mapped);
      if (arena == null) {
        return;
      }
      try {
        close.invoke(arena);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException("cannot unmap an index mapping", e);
      }
    }
  }
}
