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

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The architecture rule of docs/architecture.md: engine-neutral code (common, and the core of every job) must
 * not touch Flink or Samza. Each engine-neutral module runs {@link #check} on its own packages.
 */
public final class EngineNeutrality {

    public static final ArchRule NO_ENGINE_IMPORTS = noClasses()
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.apache.flink..", "org.apache.samza..")
            .because(
                    "job logic is written once and must run on both engines: wire engines in the flink/ and samza/ adapters");

    private EngineNeutrality() {}

    /** Fails with the offending classes if production code under {@code packages} depends on an engine. */
    public static void check(String... packages) {
        NO_ENGINE_IMPORTS.check(productionClasses(packages));
    }

    public static JavaClasses productionClasses(String... packages) {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(packages);
    }
}
