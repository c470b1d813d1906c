package dev.memhook.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module boundaries of docs/ARCHITECTURE.md ("Modules"), checked on the compiled classes: the
 * API depends on the JDK only, neither the testkit nor the Lucene store depends on core, no public
 * method of core's or the Lucene store's exported packages mentions an internal type, and the data
 * path's stages ("The data path") use earlier stages only.
 */
class ArchitectureTest {

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.memhook");
  }

  @Test
  void theApi_dependsOnTheJdkOnly() {
    classes()
        .that()
        .resideInAPackage("dev.memhook.api..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("dev.memhook.api..", "java..")
        .check(classes);
  }

  @Test
  void theTestKit_doesNotDependOnCore() {
    noClasses()
        .that()
        .resideInAPackage("dev.memhook.testkit..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.memhook.core..")
        .check(classes);
  }

  @Test
  void theLuceneStore_doesNotDependOnCore() {
    noClasses()
        .that()
        .resideInAPackage("dev.memhook.lucene..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.memhook.core..")
        .because("memory-lucene depends on memory-api only; memory-core is built on it")
        .check(classes);
  }

  /**
   * The stages of core's data path, in the order a stage may use: each may use the ones before it
   * and none after it. Sanitizing is used by everything that takes text in; an observation is
   * compressed and consolidated with what {@code observe} derives; capture builds on both; recall
   * reads what capture recorded (a captured turn's source); the hook injects what recall found. The
   * journal, logging, failure and notification packages are services any stage may use.
   */
  private static final List<String> STAGES =
      List.of("sanitize", "observe", "compress", "capture", "store", "recall", "inject");

  @Test
  void theDataPath_runsOneWay_noStageUsesALaterOne() {
    for (int i = 0; i < STAGES.size() - 1; i++) {
      String[] later =
          STAGES.subList(i + 1, STAGES.size()).stream()
              .map(stage -> "dev.memhook.core.internal." + stage + "..")
              .toArray(String[]::new);
      noClasses()
          .that()
          .resideInAPackage("dev.memhook.core.internal." + STAGES.get(i) + "..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(later)
          .because(
              "the data path runs "
                  + String.join(" -> ", STAGES)
                  + ": a rule two stages share lives in the earlier one")
          .check(classes);
    }
  }

  @Test
  void publicCoreAndLuceneMethods_doNotMentionInternalTypesInTheirSignatures() {
    methods()
        .that()
        .arePublic()
        .and()
        .areDeclaredInClassesThat()
        .arePublic()
        .and()
        .areDeclaredInClassesThat()
        .resideInAnyPackage("dev.memhook.core..", "dev.memhook.lucene..")
        .and()
        .areDeclaredInClassesThat()
        .resideOutsideOfPackages("dev.memhook.core.internal..", "dev.memhook.lucene.internal..")
        .should(
            new ArchCondition<JavaMethod>("not mention internal types in their signatures") {
              @Override
              public void check(JavaMethod method, ConditionEvents events) {
                boolean leaks =
                    isInternal(method.getRawReturnType())
                        || method.getRawParameterTypes().stream()
                            .anyMatch(ArchitectureTest::isInternal);
                if (leaks) {
                  events.add(
                      SimpleConditionEvent.violated(
                          method, method.getFullName() + " exposes an internal type"));
                }
              }
            })
        .check(classes);
  }

  private static boolean isInternal(JavaClass type) {
    String pkg = type.getPackageName();
    return pkg.startsWith("dev.memhook.core.internal")
        || pkg.startsWith("dev.memhook.lucene.internal");
  }
}
