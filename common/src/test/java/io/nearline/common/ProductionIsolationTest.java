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
package io.nearline.common;

import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.nearline.cli.fake.CallsDown;
import io.nearline.cli.fake.FakeFrontDoor;
import io.nearline.common.annotation.VisibleForTesting;
import io.nearline.common.cyclefixture.lower.CallsUp;
import io.nearline.common.cyclefixture.lower.Lower;
import io.nearline.common.cyclefixture.upper.OneWay;
import io.nearline.common.cyclefixture.upper.Upper;
import io.nearline.common.testkit.EngineNeutrality;
import io.nearline.common.testkit.ProductionIsolation;
import io.nearline.jobs.fake.CallsALocalTool;
import io.nearline.jobs.fake.FakeOperatorTool;
import io.nearline.localcluster.fake.CallsAnOperatorTool;
import io.nearline.localcluster.fake.CallsTheFrontDoor;
import io.nearline.localcluster.fake.FakeTool;
import org.junit.jupiter.api.Test;

/**
 * The rules are not blind: each catches the breach it names (the fixtures live outside the tool
 * packages, as production code would), and common itself keeps them.
 */
class ProductionIsolationTest {

    static final class Hook {
        @VisibleForTesting
        static int install() {
            return 1;
        }

        int ownUse() {
            return install(); // a class may use its own test hook
        }
    }

    static final class CallsATool {
        int run() {
            return FakeTool.run();
        }
    }

    static final class CallsATestHook {
        int run() {
            return Hook.install();
        }
    }

    @Test
    void commonKeepsTheRules() {
        JavaClasses common = EngineNeutrality.productionClasses("io.nearline.common");
        ProductionIsolation.NO_TOOLS_IN_PRODUCTION.check(common);
        ProductionIsolation.NO_TEST_ONLY_CALLS.check(common);
        ProductionIsolation.NO_ARROW_UP.check(common);
        ProductionIsolation.NO_PACKAGE_CYCLES.check(common);
        ProductionIsolation.AT_MOST_SIX_PARAMETERS.check(common);
    }

    @Test
    void aDependencyOnAToolIsCaught() {
        JavaClasses leaky = new ClassFileImporter().importClasses(CallsATool.class, FakeTool.class);
        assertThrows(AssertionError.class, () -> ProductionIsolation.NO_TOOLS_IN_PRODUCTION.check(leaky));
    }

    @Test
    void anArrowUpIsCaughtOnEveryFloorAndAnArrowDownIsNot() {
        // the model using a tool, and a tool using the front door above it
        assertThrows(
                AssertionError.class,
                () -> ProductionIsolation.NO_ARROW_UP.check(
                        new ClassFileImporter().importClasses(CallsATool.class, FakeTool.class)));
        assertThrows(
                AssertionError.class,
                () -> ProductionIsolation.NO_ARROW_UP.check(
                        new ClassFileImporter().importClasses(CallsTheFrontDoor.class, FakeFrontDoor.class)));
        // an operator's tool (running the jobs) using the local stack above it
        assertThrows(
                AssertionError.class,
                () -> ProductionIsolation.NO_ARROW_UP.check(
                        new ClassFileImporter().importClasses(CallsALocalTool.class, FakeTool.class)));
        // the front door using a tool points down, and so does the local stack using an operator's tool
        ProductionIsolation.NO_ARROW_UP.check(new ClassFileImporter().importClasses(CallsDown.class, FakeTool.class));
        ProductionIsolation.NO_ARROW_UP.check(
                new ClassFileImporter().importClasses(CallsAnOperatorTool.class, FakeOperatorTool.class));
    }

    static final class CallsAnOperatorToolFromAJob {
        int run() {
            return FakeOperatorTool.run();
        }
    }

    @Test
    void aJobUsingAnOperatorsToolIsCaught() {
        // the deploy tool, the cluster file and the verifier ship in no job artifact
        JavaClasses leaky =
                new ClassFileImporter().importClasses(CallsAnOperatorToolFromAJob.class, FakeOperatorTool.class);
        assertThrows(AssertionError.class, () -> ProductionIsolation.NO_TOOLS_IN_PRODUCTION.check(leaky));
    }

    @Test
    void aCycleBetweenTwoPackagesIsCaughtAndAOneWayDependencyIsNot() {
        JavaClasses cycle = new ClassFileImporter().importClasses(Upper.class, Lower.class, CallsUp.class);
        assertThrows(AssertionError.class, () -> ProductionIsolation.NO_PACKAGE_CYCLES.check(cycle));
        ProductionIsolation.NO_PACKAGE_CYCLES.check(new ClassFileImporter().importClasses(OneWay.class, Lower.class));
    }

    static final class SevenArguments {
        static int add(int a, int b, int c, int d, int e, int f, int g) {
            return a + b + c + d + e + f + g;
        }
    }

    record SevenComponents(int a, int b, int c, int d, int e, int f, int g) {}

    @Test
    void aMethodWithSevenParametersIsCaughtButNotARecordsOwnConstructor() {
        assertThrows(
                AssertionError.class,
                () -> ProductionIsolation.AT_MOST_SIX_PARAMETERS.check(
                        new ClassFileImporter().importClasses(SevenArguments.class)));
        ProductionIsolation.AT_MOST_SIX_PARAMETERS.check(new ClassFileImporter().importClasses(SevenComponents.class));
    }

    @Test
    void aCallToATestHookIsCaughtButNotTheOwnersOwnUse() {
        ProductionIsolation.NO_TEST_ONLY_CALLS.check(new ClassFileImporter().importClasses(Hook.class));
        JavaClasses leaky = new ClassFileImporter().importClasses(CallsATestHook.class, Hook.class);
        assertThrows(AssertionError.class, () -> ProductionIsolation.NO_TEST_ONLY_CALLS.check(leaky));
    }
}
