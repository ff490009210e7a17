package io.nearline.localcluster.flink;

import io.nearline.common.testkit.ProductionIsolation;
import org.junit.jupiter.api.Test;

/** Every Flink job, its core, stores and kits on one classpath with the tools that run them: the jobs stay apart. */
class ProductionIsolationTest {

    @Test
    void jobCodeDependsOnNoToolAndCallsNoTestHook() {
        ProductionIsolation.check();
    }
}
