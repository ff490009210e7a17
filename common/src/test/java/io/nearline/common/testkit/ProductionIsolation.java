/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.common.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.nearline.common.annotation.VisibleForTesting;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The rules that keep production code apart from the tools: job code (everything a job artifact
 * carries) depends on no local tool (runners, replays, the demo, benchmarks, the test kits), and never
 * calls a {@link VisibleForTesting} member. Tools may depend on jobs, never the reverse, and no two
 * packages depend on each other. Each module that can see production code and tools together (the
 * local runners, the front door) runs {@link #check}.
 */
public final class ProductionIsolation {

    /** Packages of the tools' floors and the test kits (docs/architecture.md): nothing in a job artifact may depend on them. */
    public static final String[] TOOLS = Stream.concat(
                    Stream.of(Layout.packages(Layout.Floor::tools)), Stream.of(Layout.TEST_KITS))
            .toArray(String[]::new);

    public static final ArchRule NO_TOOLS_IN_PRODUCTION = noClasses()
            .that()
            .resideOutsideOfPackages(TOOLS)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(TOOLS)
            .because("job artifacts carry production code only: local runners, replays, the demo and test kits "
                    + "depend on the jobs, never the reverse");

    public static final ArchRule NO_TEST_ONLY_CALLS = noClasses()
            .that()
            .resideOutsideOfPackages(TOOLS)
            .should()
            .callCodeUnitWhere(DescribedPredicate.describe(
                    "a @VisibleForTesting member of another class",
                    (JavaCall<?> call) -> !call.getOriginOwner().equals(call.getTargetOwner())
                            && call.getTarget()
                                    .resolveMember()
                                    .map(m -> m.isAnnotatedWith(VisibleForTesting.class))
                                    .orElse(false)))
            .because("members marked @VisibleForTesting exist for tests and local runners only");

    /** The dependency rule of docs/architecture.md, floor by floor: no class depends on a floor above its own. */
    public static final ArchRule NO_ARROW_UP = noArrowUp();

    private static ArchRule noArrowUp() {
        List<ArchRule> floors = new ArrayList<>();
        for (int floor = 0; floor < Layout.FLOORS.size() - 1; floor++) {
            floors.add(noClasses()
                    .that()
                    .resideInAnyPackage(Layout.packagesOn(floor))
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(Layout.packagesAbove(floor))
                    .because(Layout.FLOORS.get(floor).name() + " must not depend on a floor above it")
                    // a classpath need not hold every floor (common's own tests hold one)
                    .allowEmptyShould(true));
        }
        return CompositeArchRule.of(floors);
    }

    /**
     * Every package is a slice: a cycle between two packages means neither is the lower layer, and
     * the layout (one folder, one concern, arrows pointing down) no longer says which to read first.
     */
    public static final ArchRule NO_PACKAGE_CYCLES =
            slices().matching("io.nearline.(**)").should().beFreeOfCycles();

    /** More than six parameters ask for a small record of the ones that belong together. */
    public static final ArchRule AT_MOST_SIX_PARAMETERS = codeUnits()
            .that(DescribedPredicate.describe(
                    "are written by hand (not a record's canonical constructor, generated Avro, or synthetic)",
                    (JavaCodeUnit u) -> !u.getModifiers().contains(JavaModifier.SYNTHETIC)
                            && !u.getOwner().getPackageName().contains(".avro")
                            && !(u.isConstructor() && u.getOwner().isRecord())))
            .should(new ArchCondition<JavaCodeUnit>("have at most 6 parameters") {
                @Override
                public void check(JavaCodeUnit unit, ConditionEvents events) {
                    int n = unit.getRawParameterTypes().size();
                    if (n > 6) {
                        events.add(
                                SimpleConditionEvent.violated(unit, unit.getFullName() + " has " + n + " parameters"));
                    }
                }
            });

    private ProductionIsolation() {}

    /** Fails with the offending classes if production code under {@code io.nearline} breaks either rule. */
    public static void check() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar")) // the test kits' jars
                // third-party code relocated into a store's jar (store-redis ships Lettuce and Netty so)
                .withImportOption(location -> !location.contains("/shaded/"))
                .importPackages("io.nearline");
        NO_TOOLS_IN_PRODUCTION.check(classes);
        NO_TEST_ONLY_CALLS.check(classes);
        NO_ARROW_UP.check(classes);
        NO_PACKAGE_CYCLES.check(classes);
        AT_MOST_SIX_PARAMETERS.check(classes);
    }
}
