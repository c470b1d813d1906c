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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module boundaries of docs/ARCHITECTURE.md ("Modules"), checked on the compiled classes: the
 * API depends on the JDK only, neither the testkit nor the Lucene store depends on core, and no
 * public method of core's or the Lucene store's exported packages mentions an internal type.
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
