package io.nearline.cacheupdater.core;

import io.nearline.common.testkit.EngineNeutrality;
import org.junit.jupiter.api.Test;

class CoreArchitectureTest {

    @Test
    void coreDoesNotDependOnAnyEngine() {
        EngineNeutrality.check("io.nearline.cacheupdater.core");
    }
}
