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
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.nearline.common.annotation.VisibleForTesting;

/**
 * The rules that keep production code apart from the tools: job code (everything a job artifact
 * carries) depends on no local tool (runners, replays, the demo, benchmarks, the test kits), and never
 * calls a {@link VisibleForTesting} member. Tools may depend on jobs, never the reverse, and no two
 * packages depend on each other. Each module that can see production code and tools together (the
 * local runners, the front door) runs {@link #check}.
 */
public final class ProductionIsolation {

    /** Packages of local tooling: nothing in a job artifact may depend on them. */
    public static final String[] TOOLS = {
        "io.nearline.localcluster..",
        "io.nearline.testbed..",
        "io.nearline.drill..",
        "io.nearline.cacheupdater.reference..",
        "io.nearline.tracking.reference..",
        "..testkit..",
        "io.nearline.bench.."
    };

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

    /** Packages of the job modules: common, each job's core, its engine adapters and stores, the engine kits. */
    public static final String[] JOBS = {
        "io.nearline.common..",
        "io.nearline.cacheupdater.core..",
        "io.nearline.cacheupdater.flink..",
        "io.nearline.cacheupdater.samza..",
        "io.nearline.store..",
        "io.nearline.bootstrap..",
        "io.nearline.tracking.join..",
        "io.nearline.tracking.flink..",
        "io.nearline.tracking.samza..",
        "io.nearline.engine.."
    };

    /** Packages of local-cluster and lxc-testbed. */
    public static final String[] LOCAL_TOOLS = {
        "io.nearline.localcluster..", "io.nearline.testbed..", "io.nearline.drill.."
    };

    /** The dependency rule of docs/architecture.md, read from the job's side: tools -> jobs -> common, never up. */
    public static final ArchRule JOBS_DO_NOT_USE_LOCAL_TOOLS = noClasses()
            .that()
            .resideInAnyPackage(JOBS)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(LOCAL_TOOLS)
            .because("no job module depends on local-cluster or lxc-testbed: those tools depend on the jobs");

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
        JOBS_DO_NOT_USE_LOCAL_TOOLS.check(classes);
        NO_PACKAGE_CYCLES.check(classes);
        AT_MOST_SIX_PARAMETERS.check(classes);
    }
}
