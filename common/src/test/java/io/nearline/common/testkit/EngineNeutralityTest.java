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
