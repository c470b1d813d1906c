package dev.memhook.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The boundaries between modules and packages, checked on the compiled classes of every module. It
 * runs here because this module's tests see all the others (memory-api, memory-lucene, memory-core,
 * memory-djl-embeddings, memory-testkit, memory-postgres, examples and the benchmarks themselves);
 * the rules about memory-core alone are in memory-core's {@code ArchitectureTest}.
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
          "dev.memhook.benchmarks"
        }) {
      if (classes.stream().noneMatch(c -> c.getPackageName().equals(pkg))) {
        throw new AssertionError(
            "no class of " + pkg + " was imported: the rules below would check nothing there");
      }
    }
  }

  @Test
  void nothingOutsideMemoryCore_usesItsInternalPackages() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.memhook.core..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.memhook.core.internal..")
        .because(
            "core.internal is not exported: hosts, adapters, stores and benchmarks use the public API")
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
  void packagesHaveNoCycles() {
    slices().matching("dev.memhook.(**)").should().beFreeOfCycles().check(classes);
  }
}
