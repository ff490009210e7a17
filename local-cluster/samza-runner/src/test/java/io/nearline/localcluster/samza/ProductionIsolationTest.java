package io.nearline.localcluster.samza;

import io.nearline.common.testkit.ProductionIsolation;
import org.junit.jupiter.api.Test;

/** Every Samza job, its core, stores and kits on one classpath with the tools that run them: the jobs stay apart. */
class ProductionIsolationTest {

    @Test
    void jobCodeDependsOnNoToolAndCallsNoTestHook() {
        ProductionIsolation.check();
    }
}
