package dev.fsm.validate;

import dev.fsm.FsmException;
import dev.fsm.diagnostic.Diagnostic;
import dev.fsm.diagnostic.Problems;
import dev.fsm.model.Machine;
import dev.fsm.yaml.MachineDraft;
import dev.fsm.yaml.MachineReader;
import dev.fsm.yaml.SourceMap;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Validates machine files and folders: every check of the SPEC, every problem in one pass. */
public final class Validator {

  private Validator() {}

  /**
   * Validates files and the machine files ({@code *.yaml}, {@code *.yml}) directly inside
   * folders.
   *
   * @throws FsmException when a path does not exist or a folder holds no machine files
   */
  public static ValidationReport validate(List<Path> paths) {
    List<Path> files = new ArrayList<>();
    for (Path path : paths) {
      files.addAll(machineFiles(path));
    }
    List<FileReport> reports = new ArrayList<>();
    Map<Path, MachineDraft> drafts = new LinkedHashMap<>();
    for (Path file : files) {
      // One file named twice (`dir` and `dir/a.yaml`) is one machine, not a duplicate name.
      drafts.computeIfAbsent(file.toAbsolutePath().normalize(), f -> MachineReader.read(file));
    }
    Map<Path, List<Diagnostic>> duplicates = duplicateNames(drafts.values());
    for (MachineDraft draft : drafts.values()) {
      reports.add(check(draft, duplicates.getOrDefault(draft.file(), List.of())));
    }
    return new ValidationReport(reports);
  }

  /** Checks one machine file on its own. */
  public static FileReport check(Path file) {
    return check(MachineReader.read(file), List.of());
  }

  /** Checks machine YAML given as text; {@code file} names it and anchors relative programs. */
  public static FileReport check(Path file, String text) {
    return check(MachineReader.read(file, text), List.of());
  }

  /** The machine files a path names: itself, or the YAML files directly inside a folder. */
  public static List<Path> machineFiles(Path path) {
    if (!Files.exists(path)) {
      throw new FsmException("no such file or folder: " + path);
    }
    if (!Files.isDirectory(path)) {
      return List.of(path);
    }
    // Loops, not streams, here and in check(): the first stream pipeline of a process
    // initialises the stream machinery, measured at 5% of `fsm validate`'s own work.
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
      for (Path entry : entries) {
        if (entry.getFileName().toString().matches(".+\\.ya?ml") && Files.isRegularFile(entry)) {
          found.add(entry);
        }
      }
    } catch (IOException e) {
      throw new FsmException("cannot list folder " + path + ": " + e.getMessage(), e);
    } catch (DirectoryIteratorException e) {
      throw new FsmException("cannot list folder " + path + ": " + e.getCause().getMessage(), e);
    }
    if (found.isEmpty()) {
      throw new FsmException("no machine files (*.yaml, *.yml) in folder " + path);
    }
    found.sort(null);
    return List.copyOf(found);
  }

  private static FileReport check(MachineDraft draft, List<Diagnostic> extra) {
    Problems problems = new Problems(draft.file());
    draft.machine().ifPresent(machine -> {
      new GraphChecks(machine, draft.sources(), problems).run();
      ProgramChecks.run(machine, draft.sources(), problems);
      ErrorEdgeChecks.run(machine, draft.sources(), problems);
    });
    List<Diagnostic> all = new ArrayList<>(draft.diagnostics());
    all.addAll(problems.all());
    all.addAll(extra);
    boolean ok = true;
    for (Diagnostic d : all) {
      ok &= !d.isError();
    }
    return new FileReport(draft.file(), ok ? draft.machine() : Optional.empty(), all);
  }

  /** Machine names must be unique among the files of one folder. */
  private static Map<Path, List<Diagnostic>> duplicateNames(Iterable<MachineDraft> drafts) {
    Map<String, MachineDraft> firstByName = new LinkedHashMap<>();
    Map<Path, List<Diagnostic>> found = new LinkedHashMap<>();
    for (MachineDraft draft : drafts) {
      Optional<Machine> machine = draft.machine();
      if (machine.isEmpty() || machine.get().name().isEmpty()) {
        continue;
      }
      String key = folderOf(draft.file()) + "\0" + machine.get().name();
      MachineDraft first = firstByName.putIfAbsent(key, draft);
      if (first != null) {
        found.computeIfAbsent(draft.file(), f -> new ArrayList<>()).add(Diagnostic.error(
            draft.file(), draft.sources().at("machine"), "duplicate machine name `"
                + machine.get().name() + "`: " + first.file() + " defines it too",
            "machine names must be unique in a folder; rename one of them"));
      }
    }
    return found;
  }

  private static Path folderOf(Path file) {
    Path parent = file.toAbsolutePath().normalize().getParent();
    return parent == null ? Path.of("/") : parent;
  }
}
