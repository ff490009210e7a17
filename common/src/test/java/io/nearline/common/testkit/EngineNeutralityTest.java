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

import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.apache.flink.fake.FakeEngineApi;
import org.junit.jupiter.api.Test;

class EngineNeutralityTest {

    /** A class that breaks the rule, to show the rule is not blind. */
    static final class LeakyLogic {
        int run() {
            return FakeEngineApi.touch();
        }
    }

    @Test
    void commonDoesNotDependOnAnyEngine() {
        EngineNeutrality.check("io.nearline.common");
    }

    @Test
    void ruleCatchesAnEngineImport() {
        JavaClasses leaky = new ClassFileImporter().importClasses(LeakyLogic.class);
        assertThrows(AssertionError.class, () -> EngineNeutrality.NO_ENGINE_IMPORTS.check(leaky));
    }
}
