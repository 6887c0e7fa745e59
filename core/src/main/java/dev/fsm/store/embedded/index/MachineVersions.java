package dev.fsm.store.embedded.index;

import dev.fsm.store.MachineVersion;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.event.StoreEventCodec;
import java.util.ArrayList;
import java.util.List;
import org.mapdb.BTreeMap;

/** The index's machine versions, keyed (machine, number) so a machine's are oldest first. */
final class MachineVersions {

  private final BTreeMap<Object[], byte[]> versions;

  MachineVersions(BTreeMap<Object[], byte[]> versions) {
    this.versions = versions;
  }

  /** Stores a registration; the same one again changes nothing. */
  void put(StoreEvent.Registered registered) {
    MachineVersion v = registered.version();
    versions.put(new Object[] {v.machine(), v.number()}, StoreEventCodec.encode(registered));
  }

  /** A machine's versions, oldest first. */
  List<MachineVersion> of(String machine) {
    return decode(versions.prefixSubMap(new Object[] {machine}).values());
  }

  /** Every machine's versions, by machine and then oldest first. */
  List<MachineVersion> all() {
    return decode(versions.values());
  }

  private static List<MachineVersion> decode(Iterable<byte[]> records) {
    List<MachineVersion> found = new ArrayList<>();
    for (byte[] bytes : records) {
      found.add(((StoreEvent.Registered) StoreEventCodec.decode(bytes)).version());
    }
    return found;
  }
}
