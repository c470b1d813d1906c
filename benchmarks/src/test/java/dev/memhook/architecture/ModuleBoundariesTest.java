package dev.memhook.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The boundaries between modules and packages, checked on the compiled classes of every module. It
 * runs here because this module's tests see all the others (memory-api, memory-lucene, memory-core,
 * memory-djl-embeddings, memory-testkit, memory-postgres, memory-cli, examples and the benchmarks
 * themselves); the rules about memory-core alone are in memory-core's {@code ArchitectureTest}.
 */
class ModuleBoundariesTest {

  private static JavaClasses classes;

  @BeforeAll
  static void importEveryModule() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.memhook");
  }

  @Test
  void everyModuleIsImported() {
    for (String pkg :
        new String[] {
          "dev.memhook.api",
          "dev.memhook.lucene",
          "dev.memhook.lucene.internal.analysis",
          "dev.memhook.core",
          "dev.memhook.core.internal.recall",
          "dev.memhook.djl",
          "dev.memhook.langchain4j",
          "dev.memhook.micrometer",
          "dev.memhook.postgres",
          "dev.memhook.springai",
          "dev.memhook.springai.autoconfigure",
          "dev.memhook.testkit",
          "dev.memhook.examples",
          "dev.memhook.benchmarks",
          "dev.memhook.cli"
        }) {
      if (classes.stream().noneMatch(c -> c.getPackageName().equals(pkg))) {
        throw new AssertionError(
            "no class of " + pkg + " was imported: the rules below would check nothing there");
      }
    }
  }

  @Test
  void nothingOutsideMemoryCore_usesItsInternalPackages_butTheCliItsExcerptsAndQueryWords() {
    noClasses()
        .that()
        .resideOutsideOfPackages("dev.memhook.core..", "dev.memhook.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.memhook.core.internal..")
        .because(
            "core.internal is not exported: hosts, adapters, stores and benchmarks use the public API")
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("dev.memhook.cli..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("dev.memhook.core.internal..")
                .and(
                    resideOutsideOfPackages(
                        "dev.memhook.core.internal.inject.excerpt..",
                        "dev.memhook.core.internal.recall.words..")))
        .because(
            "of core.internal, only inject.excerpt and recall.words are exported, to memory-cli"
                + " alone: memhook hook and memory_recall show the excerpts the chat hook shows,"
                + " for the words it reads")
        .check(classes);
  }

  @Test
  void theLuceneStore_dependsOnTheApiOnly() {
    noClasses()
        .that()
        .resideInAPackage("dev.memhook.lucene..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("dev.memhook..")
                .and(resideOutsideOfPackages("dev.memhook.api..", "dev.memhook.lucene..")))
        .because(
            "memory-lucene depends on memory-api only: memory-core and memory-postgres are built on"
                + " it, not the other way round")
        .check(classes);
  }

  @Test
  void onlyMemoryCoreAndMemoryPostgres_useTheLuceneStoresInternalPackages() {
    noClasses()
        .that()
        .resideOutsideOfPackages(
            "dev.memhook.lucene..", "dev.memhook.core..", "dev.memhook.postgres..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.memhook.lucene.internal..")
        .because(
            "lucene.internal is exported to memory-core and memory-postgres only: everything else"
                + " uses LuceneMemoryStore, IndexInfo, MemoryRecordJson and CodeAwareTerms")
        .check(classes);
  }

  @Test
  void nothingOutsideMemoryApi_usesItsInternalPackage() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.memhook.api..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.memhook.api.internal..")
        .because("api.internal holds what the API's own types share; it is exported to no one")
        .check(classes);
  }

  /**
   * Every package is its own slice, except the front door: {@code api} with the two packages of its
   * views, {@code api.capture} and {@code api.trace}, is one. {@code MemoryService.capture()}
   * returns a type of {@code api.capture}, whose events name the root's scopes and ids, as
   * Caffeine's {@code Cache.stats()} returns a type of {@code cache.stats}, whose counter names the
   * root's {@code RemovalCause}: the three packages are one product, split so that a reader finds
   * capture's and tracing's types together. A cycle between any other packages, or between the
   * front door and the SPI or chat packages, still fails.
   */
  @Test
  void packagesHaveNoCycles() {
    slices()
        .assignedFrom(
            new SliceAssignment() {
              @Override
              public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String pkg = javaClass.getPackageName();
                if (!pkg.startsWith("dev.memhook.")) {
                  return SliceIdentifier.ignore();
                }
                if (FRONT_DOOR.contains(pkg)) {
                  return SliceIdentifier.of("the front door (api, api.capture, api.trace)");
                }
                return SliceIdentifier.of(pkg);
              }

              @Override
              public String getDescription() {
                return "packages of dev.memhook, the front door's three as one";
              }
            })
        .should()
        .beFreeOfCycles()
        .check(classes);
  }

  private static final java.util.Set<String> FRONT_DOOR =
      java.util.Set.of("dev.memhook.api", "dev.memhook.api.capture", "dev.memhook.api.trace");
}
