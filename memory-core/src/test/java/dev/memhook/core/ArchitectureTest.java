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
 * API depends on the JDK only, the testkit does not depend on core, and no public method of core's
 * exported packages mentions a {@code core.internal} type.
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
  void publicCoreMethods_doNotMentionInternalTypesInTheirSignatures() {
    methods()
        .that()
        .arePublic()
        .and()
        .areDeclaredInClassesThat()
        .arePublic()
        .and()
        .areDeclaredInClassesThat()
        .resideInAPackage("dev.memhook.core..")
        .and()
        .areDeclaredInClassesThat()
        .resideOutsideOfPackage("dev.memhook.core.internal..")
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
    return type.getPackageName().startsWith("dev.memhook.core.internal");
  }
}
