package dev.fsm.engine;

import dev.fsm.FsmException;
import dev.fsm.diagnostic.Diagnostic;
import dev.fsm.model.Machine;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import dev.fsm.validate.FileReport;
import dev.fsm.validate.Validator;
import dev.fsm.yaml.MachineReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The machine versions tasks are pinned to, read back from the store and kept parsed. A version's
 * programs run in the folder of the machine's file: the file last started from in this process,
 * else the file of that name in the machines folder.
 */
public final class MachineLibrary {

  private record Key(String machine, String version) {}

  private final Store store;
  private final Path machinesFolder;
  private final Map<Key, Machine> parsed = new ConcurrentHashMap<>();
  private final Map<Key, Integer> numbers = new ConcurrentHashMap<>();
  private final Map<String, Path> files = new ConcurrentHashMap<>();
  private volatile boolean folderScanned;
  /** Per machine, its versions as last read, and when: claims ask for the newest often. */
  private final Map<String, Known> known = new ConcurrentHashMap<>();

  private record Known(List<MachineVersion> versions, long readAtNanos) {}

  /** How long a machine's versions are trusted without reading them again (other processes). */
  private static final long VERSIONS_FRESH_NANOS = 1_000_000_000L;

  /** A library over the store's versions; {@code machinesFolder} may not exist. */
  public MachineLibrary(Store store, Path machinesFolder) {
    this.store = store;
    this.machinesFolder = machinesFolder.toAbsolutePath().normalize();
  }

  /** Remembers where a machine's file is, so its programs run in that folder. */
  public void remember(String machine, Path file) {
    files.put(machine, file.toAbsolutePath().normalize());
  }

  /**
   * The machine as version {@code version} defines it.
   *
   * @throws FsmException when the store has no such version, or its text no longer validates
   */
  public Machine machine(String machine, String version) {
    Machine known = parsed.get(new Key(machine, version));
    if (known != null) {
      return known;
    }
    String text = version(machine, version).map(MachineVersion::definition).orElse(null);
    if (text == null) {
      throw new FsmException("machine `" + machine + "` has no version " + version
          + " in this store");
    }
    Machine read = read(machine, version, text);
    parsed.put(new Key(machine, version), read);
    return read;
  }

  /**
   * The number {@code fsm machines} shows for a version (1 for the first registered), as
   * programs see it on stdin.
   *
   * @throws FsmException when the store has no such version
   */
  public int number(String machine, String version) {
    Integer known = numbers.get(new Key(machine, version));
    if (known != null) {
      return known;
    }
    for (MachineVersion v : store.versions(machine)) {
      if (v.version().equals(version)) {
        numbers.put(new Key(machine, version), v.number());
        return v.number();
      }
    }
    throw new FsmException("machine `" + machine + "` has no version " + version
        + " in this store");
  }

  /**
   * A machine's versions, oldest first: as last read when that was under a second ago (a version
   * registered in this process is seen at once, see {@link #versionsChanged}).
   */
  public List<MachineVersion> versions(String machine) {
    Known k = known.get(machine);
    long now = System.nanoTime();
    if (k == null || now - k.readAtNanos() > VERSIONS_FRESH_NANOS) {
      k = new Known(store.versions(machine), now);
      known.put(machine, k);
    }
    return k.versions();
  }

  /** Forgets what {@link #versions} read, after this process registered a version. */
  public void versionsChanged(String machine) {
    known.remove(machine);
  }

  /** After this process registered {@code v}: forgets what was read unless v was the newest. */
  public void registered(MachineVersion v) {
    Known k = known.get(v.machine());
    if (k != null && (k.versions().isEmpty()
        || !k.versions().get(k.versions().size() - 1).equals(v))) {
      known.remove(v.machine());
    }
  }

  /** The version of a machine with this id or number, if registered. */
  public Optional<MachineVersion> version(String machine, String id) {
    Optional<MachineVersion> found = find(versions(machine), id);
    return found.isPresent() ? found : find(store.versions(machine), id);
  }

  /** The version of a machine with this number, if registered. */
  public Optional<MachineVersion> version(String machine, int number) {
    return versions(machine).stream().filter(v -> v.number() == number).findFirst()
        .or(() -> store.versions(machine).stream().filter(v -> v.number() == number)
            .findFirst());
  }

  private static Optional<MachineVersion> find(List<MachineVersion> versions, String id) {
    return versions.stream().filter(v -> v.version().equals(id)).findFirst();
  }

  /** Parses a definition as if it were the machine's file (for its folder). */
  public Machine read(String machine, String version, String text) {
    FileReport report = Validator.check(fileOf(machine), text);
    if (report.machine().isEmpty()) {
      String first = report.diagnostics().stream().filter(Diagnostic::isError)
          .map(Diagnostic::message).findFirst().orElse("unreadable");
      throw new FsmException("version " + version + " of machine `" + machine
          + "` cannot be read: " + first);
    }
    return report.machine().get();
  }

  /** The machine's file: remembered, found in the machines folder, or where it would be. */
  public Path fileOf(String machine) {
    Path known = files.get(machine);
    if (known != null) {
      return known;
    }
    if (!folderScanned) {
      scanFolder();
    }
    return files.getOrDefault(machine, machinesFolder.resolve(machine + ".yaml"));
  }

  private synchronized void scanFolder() {
    if (folderScanned) {
      return;
    }
    if (Files.isDirectory(machinesFolder)) {
      try {
        for (Path file : Validator.machineFiles(machinesFolder)) {
          MachineReader.read(file).machine()
              .ifPresent(m -> files.putIfAbsent(m.name(), file.toAbsolutePath().normalize()));
        }
      } catch (FsmException e) {
        // A folder with no machine files: versions then run in the machines folder itself.
      }
    }
    folderScanned = true;
  }

  /** Every machine file in the machines folder, by machine name. */
  public Map<String, Path> folderMachines() {
    scanFolder();
    return Map.copyOf(files);
  }

  /** The names of machines with registered versions among {@code candidates}. */
  public List<String> registered(List<String> candidates) {
    return candidates.stream().filter(n -> !store.versions(n).isEmpty()).toList();
  }
}
