package io.nearline.tracking.join;

import io.nearline.common.testkit.EngineNeutrality;
import org.junit.jupiter.api.Test;

class JoinArchitectureTest {

    @Test
    void theJoinKnowsNoEngine() {
        EngineNeutrality.check("io.nearline.tracking.join");
    }
}
