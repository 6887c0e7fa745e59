package dev.fsm.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.LocationProvider;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;

/**
 * The package rules of the cli module: packages free of cycles, so a newcomer can read a verb
 * without the whole module, and verbs reaching stores through access rather than the embedded
 * store's internals.
 */
@AnalyzeClasses(locations = ArchitectureTest.CliClasses.class,
    importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  /** The module's own classes only: scanning every jar for the package costs seconds. */
  static final class CliClasses implements LocationProvider {
    @Override
    public Set<Location> get(Class<?> testClass) {
      return Set.of(Location.of(Fsm.class.getProtectionDomain().getCodeSource().getLocation()));
    }
  }

  /** dev.fsm.cli, dev.fsm.cli.common, dev.fsm.cli.verb.task...: each package is one slice. */
  @ArchTest
  static final ArchRule cliPackagesHaveNoCycles = slices()
      .matching("dev.fsm.(cli..)")
      .namingSlices("$1")
      .should().beFreeOfCycles();

  /** verb.task, verb.run, verb.store, verb.render: what two verbs share lives in cli.common. */
  @ArchTest
  static final ArchRule verbPackagesAreIndependent = slices()
      .matching("dev.fsm.cli.verb.(*)..")
      .namingSlices("verb.$1")
      .should().notDependOnEachOther();

  @ArchTest
  static final ArchRule verbsOpenStoresThroughAccess = noClasses()
      .that().resideInAPackage("dev.fsm.cli.verb..")
      .and().resideOutsideOfPackage("dev.fsm.cli.verb.store..")
      .should().dependOnClassesThat().resideInAPackage("dev.fsm.store.embedded..")
      .because("only `fsm store` works on the embedded store's files; other verbs open stores"
          + " through dev.fsm.access, whatever their kind");
}
