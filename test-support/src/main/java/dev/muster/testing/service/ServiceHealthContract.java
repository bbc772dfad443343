package dev.muster.testing.service;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import org.junit.jupiter.api.Test;

/**
 * What every Muster service answers once started: health UP, with its Kafka channels and its Kubernetes watches
 * among the readiness checks, and Prometheus metrics. Extended by each service's tests, in-process and against the packaged jar.
 */
public abstract class ServiceHealthContract {

    @Test
    void healthIsUpWithKafkaReadiness() {
        // Ready once its consumers have their partitions and its watches run, which is a few seconds after it started.
        org.awaitility.Awaitility.await("health UP").atMost(java.time.Duration.ofSeconds(60)).untilAsserted(() -> given().when().get("/q/health")
                .then().statusCode(200)
                .body("status", equalTo("UP")));
        given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("checks.name", hasItem("SmallRye Reactive Messaging - readiness check"))
                .body("checks.name", hasItem("Kubernetes watches"));
    }

    @Test
    void metricsAreServedForPrometheus() {
        given().when().get("/q/metrics")
                .then().statusCode(200)
                .body(org.hamcrest.Matchers.containsString("jvm_memory_used_bytes"));
    }
}
