package dev.fsm;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.LocationProvider;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;

/**
 * The package rules of core: no package imports one that imports it back, core stays free of
 * terminal libraries, and dependencies point one way, from access down to the store.
 */
@AnalyzeClasses(locations = ArchitectureTest.CoreClasses.class,
    importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  /** The module's own classes only: scanning every jar for the package costs seconds. */
  static final class CoreClasses implements LocationProvider {
    @Override
    public Set<Location> get(Class<?> testClass) {
      return Set.of(Location.of(
          FsmException.class.getProtectionDomain().getCodeSource().getLocation()));
    }
  }

  /** dev.fsm.engine, dev.fsm.store (with its sub-packages), dev.fsm.action...: one slice each. */
  @ArchTest
  static final ArchRule corePackagesHaveNoCycles = slices()
      .matching("dev.fsm.(*)..")
      .should().beFreeOfCycles();

  /** journal, files, index, checkpoint, recovery...: the embedded store's parts. */
  @ArchTest
  static final ArchRule embeddedStorePartsHaveNoCycles = slices()
      .matching("dev.fsm.store.embedded.(*)..")
      .should().beFreeOfCycles();

  /** The facade (EmbeddedStore, its options, check and repair) uses its parts, never back. */
  @ArchTest
  static final ArchRule embeddedStorePartsNeverUseTheFacade = noClasses()
      .that().resideInAPackage("dev.fsm.store.embedded.*..")
      .should().dependOnClassesThat().resideInAPackage("dev.fsm.store.embedded");

  @ArchTest
  static final ArchRule coreHasNoTerminalLibraries = noClasses()
      .that().resideInAPackage("dev.fsm..")
      .should().dependOnClassesThat().resideInAnyPackage("picocli..", "org.jline..",
          "org.fusesource.jansi..")
      .because("core is the model, engine and stores; the command line lives in cli");

  /**
   * cli -> access -> worker/control -> operations -> engine -> store <- store.embedded,
   * store.postgres; only access names a kind of store. metrics, beside them, hears the engine
   * and reads through operations; nothing in core uses it (cli wires it to a runner).
   */
  @ArchTest
  static final ArchRule layers = layeredArchitecture()
      .consideringOnlyDependenciesInLayers()
      .layer("access").definedBy("dev.fsm.access..")
      .layer("metrics").definedBy("dev.fsm.metrics..")
      .layer("worker").definedBy("dev.fsm.worker..")
      .layer("control").definedBy("dev.fsm.control..")
      .layer("operations").definedBy("dev.fsm.operations..")
      .layer("engine").definedBy("dev.fsm.engine..")
      .layer("embedded store").definedBy("dev.fsm.store.embedded..")
      .layer("postgresql store").definedBy("dev.fsm.store.postgres..")
      .layer("store").definedBy("dev.fsm.store")
      .whereLayer("access").mayNotBeAccessedByAnyLayer()
      .whereLayer("metrics").mayNotBeAccessedByAnyLayer()
      .whereLayer("worker").mayOnlyBeAccessedByLayers("access")
      .whereLayer("control").mayOnlyBeAccessedByLayers("access", "worker")
      .whereLayer("operations").mayOnlyBeAccessedByLayers("access", "worker", "control",
          "metrics")
      .whereLayer("engine").mayOnlyBeAccessedByLayers("access", "worker", "control",
          "operations", "metrics")
      .whereLayer("embedded store").mayOnlyBeAccessedByLayers("access", "worker")
      .whereLayer("postgresql store").mayOnlyBeAccessedByLayers("access")
      .whereLayer("store").mayOnlyBeAccessedByLayers("access", "worker", "control",
          "operations", "engine", "embedded store", "postgresql store", "metrics");
}
