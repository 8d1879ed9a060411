"""Issue 26's ratchet for the third batch of labelled collections in ../shared/corpora.

The corpus tests hold every collection to fixed thresholds. The third batch (eight collections
measured blind, then added) does not meet them yet; until it does, each corpus test tolerates
exactly the disagreements listed here for that batch, and nothing else: a change may remove an
entry (the test prints it as fixed: delete it here) and never add one. The precision test holds
the batch's precision and recall to the figures measured when the ratchet was set.

Issue 26 is done when this module is gone: every list empty, every threshold met on all
collections.
"""

from __future__ import annotations

from collections.abc import Iterable

THIRD_BATCH = frozenset({
    "cardano-scaling__hydra",
    "cloudoperators__documentation",
    "dapr__dapr",
    "decentraland__adr",
    "devFancy__springboot-coupon-system",
    "digitalservicebund__ris-backend-service",
    "it-at-m__Wahllokalsystem",
    "microsoft__semantic-kernel",
})

# test_precision: (TP, warning/error findings) and (recalled, expected) on the batch, as
# measured when the ratchet was set; the batch's ratios may only grow.
PRECISION_FLOOR = (88, 431)
RECALL_FLOOR = (88, 94)

KNOWN: dict[str, frozenset[str]] = {
    'archive': frozenset({
        'decentraland__adr ADR104 warning content/ADR-31-signin-signup-kernel-website.md',
    }),
    'classify': frozenset({
        'dapr__dapr: index file kept as a record docs/decision_records/decision_records.md',
        'decentraland__adr: other file kept as a record content/resources/ADR-51/profile-files.md',
        'devFancy__springboot-coupon-system: template file kept as a record docs/architecture-decision-record/000-sample-example.md',
    }),
    'declared': frozenset({
        "cardano-scaling__hydra/docs/adr/2022-03-28_017-udp-networking.md: (label, ours) {'superseded_by': (['docs/adr/2025-02-12_032-network-properties-etcd.md'], ['UNRESOLVED:'])}",
        "cardano-scaling__hydra/docs/adr/2022-04-13_018-single-state.md: (label, ours) {'superseded_by': (['docs/adr/2023-04-26_023-local-chain-state.md', 'docs/adr/2023-09-08_026-stateless-observation-construction.md'], ['UNRESOLVED:'])}",
        "cardano-scaling__hydra/docs/adr/2023-04-26_023-local-chain-state.md: (label, ours) {'supersedes': (['docs/adr/2022-04-13_018-single-state.md'], [])}",
        "cardano-scaling__hydra/docs/adr/2023-09-08_026-stateless-observation-construction.md: (label, ours) {'supersedes': (['docs/adr/2022-04-13_018-single-state.md'], [])}",
        "cardano-scaling__hydra/docs/adr/2023-09-09_027-network-resilience.md: (label, ours) {'superseded_by': (['docs/adr/2025-02-12_032-network-properties-etcd.md'], ['UNRESOLVED:'])}",
        "cardano-scaling__hydra/docs/adr/2025-02-12_032-network-properties-etcd.md: (label, ours) {'supersedes': (['docs/adr/2022-03-28_017-udp-networking.md', 'docs/adr/2023-09-09_027-network-resilience.md'], [])}",
        "decentraland__adr/content/ADR-128-realm-modifiers-for-worlds-in-renderer.md: (label, ours) {'superseded_by': (['content/ADR-295-explorer-realm-modifiers.md'], [])}",
        "decentraland__adr/content/ADR-246-update-max-size-for-skins-and-thumbnail-validation-for-wearables.md: (label, ours) {'amends': (['content/ADR-45-entities-v4.md', 'content/ADR-51-catalyst-content-validations.md'], [])}",
        "decentraland__adr/content/ADR-285-updated-friend-request.md: (label, ours) {'supersedes': (['content/ADR-137-new-friend-request.md'], [])}",
        "decentraland__adr/content/ADR-287-update-emote-schema.md: (label, ours) {'amends': (['content/ADR-74-add-emote-schema.md'], [])}",
        "decentraland__adr/content/ADR-289-explorer-client-scenes-signed-fetch.md: (label, ours) {'amends': (['content/ADR-44-signed-fetch.md'], [])}",
        "decentraland__adr/content/ADR-290-remove-profile-snapshots.md: (label, ours) {'amends': (['content/ADR-51-catalyst-content-validations.md'], [])}",
        "decentraland__adr/content/ADR-291-explorer-ecs-plugin-system.md: (label, ours) {'supersedes': (['content/ADR-56-plugin-system.md'], [])}",
        "decentraland__adr/content/ADR-292-explorer-avatar-rendering-pipeline.md: (label, ours) {'supersedes': (['content/ADR-65-avatar-system-for-renderer.md'], [])}",
        "decentraland__adr/content/ADR-293-explorer-emotes-system.md: (label, ours) {'supersedes': (['content/ADR-66-emotes-system-for-renderer.md'], [])}",
        "decentraland__adr/content/ADR-294-explorer-runtime-architecture.md: (label, ours) {'supersedes': (['content/ADR-67-runtime-architecture-for-renderer.md'], [])}",
        "decentraland__adr/content/ADR-295-explorer-realm-modifiers.md: (label, ours) {'supersedes': (['content/ADR-128-realm-modifiers-for-worlds-in-renderer.md'], [])}",
        "decentraland__adr/content/ADR-296-explorer-unreleased-wearables-emotes-preview.md: (label, ours) {'supersedes': (['content/ADR-53-test-collections-in-the-explorer.md'], [])}",
        "decentraland__adr/content/ADR-45-entities-v4.md: (label, ours) {'amended_by': (['content/ADR-246-update-max-size-for-skins-and-thumbnail-validation-for-wearables.md'], [])}",
        "decentraland__adr/content/ADR-51-catalyst-content-validations.md: (label, ours) {'amended_by': (['content/ADR-246-update-max-size-for-skins-and-thumbnail-validation-for-wearables.md'], [])}",
        "decentraland__adr/content/ADR-56-plugin-system.md: (label, ours) {'superseded_by': (['content/ADR-291-explorer-ecs-plugin-system.md'], [])}",
        "decentraland__adr/content/ADR-58-third-party-assets-integration-v2-with-merkle-tree.md: (label, ours) {'amends': (['content/ADR-55-third-party-curation-with-merkle-tree.md'], [])}",
        "decentraland__adr/content/ADR-65-avatar-system-for-renderer.md: (label, ours) {'superseded_by': (['content/ADR-292-explorer-avatar-rendering-pipeline.md'], [])}",
        "decentraland__adr/content/ADR-66-emotes-system-for-renderer.md: (label, ours) {'superseded_by': (['content/ADR-293-explorer-emotes-system.md'], [])}",
        "decentraland__adr/content/ADR-67-runtime-architecture-for-renderer.md: (label, ours) {'superseded_by': (['content/ADR-294-explorer-runtime-architecture.md'], [])}",
        "devFancy__springboot-coupon-system/docs/architecture-decision-record/008-use-database-constraints-for-concurrency-control.md: (label, ours) {'supersedes': (['UNRESOLVED:'], [])}",
        "digitalservicebund__ris-backend-service/doc/adr/0014-error-handling-concept.md: (label, ours) {'amended_by': (['doc/adr/0017-addressing-of-validation-errors.md'], [])}",
        "microsoft__semantic-kernel/docs/decisions/0038-completion-service-selection.md: (label, ours) {'supersedes': (['docs/decisions/0015-completion-service-selection.md'], [])}",
    }),
    'links': frozenset({
        'cloudoperators__documentation: missed architecture-decision-records/004-greenhouse-resource-status-reporting.md -> ./../../pkg/apis/greenhouse/v1alpha1/pluginconfig_types.go#64',
        'dapr__dapr: ADR201 on a non-record: docs/decision_records/decision_records.md:16 broken link: ./architecture/ARC-004-http-server.md does not exist (looked for docs/decision_records/architecture/ARC-004-http-server.md): fix the path or remove the link',
    }),
    'list': frozenset({
        "cloudoperators__documentation/architecture-decision-records/004-greenhouse-resource-status-reporting.md: status 'unknown', label 'proposed' ('proposed | partially superseded by [008 ')",
        "dapr__dapr/docs/decision_records/architecture/ARC-002-multitenancy.md: status 'unknown', label 'draft' ('Placeholder')",
        'dapr__dapr/docs/decision_records/decision_records.md: index file listed as a record',
        "decentraland__adr/content/ADR-11-add-version-to-content-as-bundle-url.md: status 'draft', label 'proposed' ('Stagnant')",
        "decentraland__adr/content/ADR-21-update-cycle-of-catalysts.md: status 'draft', label 'proposed' ('Stagnant')",
        "decentraland__adr/content/ADR-8-dao-content-servers-and-local-content-servers.md: status 'draft', label 'proposed' ('Stagnant')",
        "decentraland__adr/content/ADR-9-DecentralandInterface-evolution-plan.md: status 'draft', label 'proposed' ('Stagnant')",
        'decentraland__adr/content/resources/ADR-51/profile-files.md: other file listed as a record',
        'devFancy__springboot-coupon-system/docs/architecture-decision-record/000-sample-example.md: template file listed as a record',
        "devFancy__springboot-coupon-system/docs/architecture-decision-record/008-use-database-constraints-for-concurrency-control.md: status 'superseded', label 'ambiguous' ('Superseded (이전의 분산락 도입 결정을 대체함)')",
        'it-at-m__Wahllokalsystem/docs/src/technik/adr/adr-always-full-keycloak-migration.md: status None, label \'accepted\' ("<adr-status status=\'accepted\'></adr-stat")',
        'it-at-m__Wahllokalsystem/docs/src/technik/adr/adr-auslagerung-authority-strings.md: status None, label \'rejected\' ("<adr-status status=\'rejected\'></adr-stat")',
        'it-at-m__Wahllokalsystem/docs/src/technik/adr/adr-improve-getting-started-of-services.md: status None, label \'accepted\' ("<adr-status status=\'accepted\'></adr-stat")',
        'it-at-m__Wahllokalsystem/docs/src/technik/adr/adr001-renovate-ignore-lombok.md: status None, label \'accepted\' ("<adr-status status=\'accepted\'></adr-stat")',
        'it-at-m__Wahllokalsystem/docs/src/technik/adr/adr002-controller-service-datamodels.md: status None, label \'accepted\' ("<adr-status status=\'accepted\'></adr-stat")',
        "microsoft__semantic-kernel/docs/decisions/0032-agents.md: status 'unknown', label 'proposed' ('experimental')",
        "microsoft__semantic-kernel/docs/decisions/0057-python-structured-output.md: status 'unknown', label 'draft' ('{ in-progress }')",
    }),
    'relations': frozenset({
        'cardano-scaling__hydra ADR204 docs/adr/2023-08-18_025-resource-based-api.md:68: ADR-24 names a decision that no record has: fix the id or link the record it means [FP]',
        "cardano-scaling__hydra ADR301 docs/adr/2022-03-28_017-udp-networking.md:11: superseded-by target '/adr/32' matches no record (adr/32 does not exist): point it at an existing re [FP]",
        "cardano-scaling__hydra ADR301 docs/adr/2022-04-13_018-single-state.md:11: superseded-by target '/adr/23' matches no record (adr/23 does not exist): point it at an existing re [FP]",
        "cardano-scaling__hydra ADR301 docs/adr/2022-04-13_018-single-state.md:11: superseded-by target '/adr/26' matches no record (adr/26 does not exist): point it at an existing re [FP]",
        "cardano-scaling__hydra ADR301 docs/adr/2023-09-09_027-network-resilience.md:11: superseded-by target '/adr/32' matches no record (adr/32 does not exist): point it at an existing re [FP]",
    }),
    'relations-missed': frozenset({
        'cardano-scaling__hydra ADR307 docs/adr/2022-04-13_018-single-state.md:11',
    }),
    'truth': frozenset({
        'number cardano-scaling__hydra/docs/adr/2021-06-05_001-record-architectural-decisions.md: want 1 got None',
        'number cardano-scaling__hydra/docs/adr/2021-06-06_002-reactive-core.md: want 2 got None',
        'number cardano-scaling__hydra/docs/adr/2021-06-07_003-asynchronous-duplex-api.md: want 3 got None',
        'number cardano-scaling__hydra/docs/adr/2021-06-08_004-use-handle-to-model-effects.md: want 4 got None',
        'number cardano-scaling__hydra/docs/adr/2021-06-09_005-use-io-sim-classes.md: want 5 got None',
        'number cardano-scaling__hydra/docs/adr/2021-06-10_006-network-broadcasts-all-messages.md: want 6 got None',
        'number cardano-scaling__hydra/docs/adr/2021-06-11_007-with-pattern-component-interfaces.md: want 7 got None',
        'number cardano-scaling__hydra/docs/adr/2021-06-18_008-use-custom-prelude.md: want 8 got None',
        'number cardano-scaling__hydra/docs/adr/2021-08-19_009-simplify-logging.md: want 9 got None',
        'number cardano-scaling__hydra/docs/adr/2021-10-23_010-use-direct-chain.md: want 10 got None',
        'number cardano-scaling__hydra/docs/adr/2021-11-18_011-use-cardano-api.md: want 11 got None',
        'number cardano-scaling__hydra/docs/adr/2021-11-25_012-top-down-test-driven-design.md: want 12 got None',
        'number cardano-scaling__hydra/docs/adr/2022-01-19_013-contract-testing-strategy.md: want 13 got None',
        'number cardano-scaling__hydra/docs/adr/2022-02-14_014-hydra-script-tokens.md: want 14 got None',
        'number cardano-scaling__hydra/docs/adr/2022-03-17_015-admin-api.md: want 15 got None',
        'number cardano-scaling__hydra/docs/adr/2022-03-23_016-keep-rejected-adr.md: want 16 got None',
        'number cardano-scaling__hydra/docs/adr/2022-03-28_017-udp-networking.md: want 17 got None',
        'number cardano-scaling__hydra/docs/adr/2022-04-13_018-single-state.md: want 18 got None',
        'number cardano-scaling__hydra/docs/adr/2022-07-22_019-reference-scripts.md: want 19 got None',
        'number cardano-scaling__hydra/docs/adr/2022-08-02_020-handling-time.md: want 20 got None',
        'number cardano-scaling__hydra/docs/adr/2022-12-05_021-Bounded-transaction-validity-on-Hydra-protocol-transactions.md: want 21 got None',
        'number cardano-scaling__hydra/docs/adr/2022-12-06_022-model-based-testing.md: want 22 got None',
        'number cardano-scaling__hydra/docs/adr/2023-04-26_023-local-chain-state.md: want 23 got None',
        'number cardano-scaling__hydra/docs/adr/2023-06-19_024-event-sourced-persistence.md: want 24 got None',
        'number cardano-scaling__hydra/docs/adr/2023-08-18_025-resource-based-api.md: want 25 got None',
        'number cardano-scaling__hydra/docs/adr/2023-09-08_026-stateless-observation-construction.md: want 26 got None',
        'number cardano-scaling__hydra/docs/adr/2023-09-09_027-network-resilience.md: want 27 got None',
        'number cardano-scaling__hydra/docs/adr/2023-10-16_028_offline_adr.md: want 28 got None',
        'number cardano-scaling__hydra/docs/adr/2023-11-07_029-event-source-sink.md: want 29 got None',
        'number cardano-scaling__hydra/docs/adr/2023-12-06_030-use-cbor-for-tx.md: want 30 got None',
        'number cardano-scaling__hydra/docs/adr/2024-01-27_031-constant-memory.md: want 31 got None',
        'number cardano-scaling__hydra/docs/adr/2025-02-12_032-network-properties-etcd.md: want 32 got None',
        'number cardano-scaling__hydra/docs/adr/2026-03-10_033-directly-open-head.md: want 33 got None',
        'number cardano-scaling__hydra/docs/adr/2026-07-16_034-binary-cbor-api.md: want 34 got None',
        "rels   cardano-scaling__hydra/docs/adr/2023-04-26_023-local-chain-state.md: want {'supersedes': ['docs/adr/2022-04-13_018-single-state.md']} got []",
        "rels   cardano-scaling__hydra/docs/adr/2023-09-08_026-stateless-observation-construction.md: want {'supersedes': ['docs/adr/2022-04-13_018-single-state.md']} got []",
        "rels   cardano-scaling__hydra/docs/adr/2025-02-12_032-network-properties-etcd.md: want {'supersedes': ['docs/adr/2022-03-28_017-udp-networking.md', 'docs/adr/2023-09-09_027-network-resilience.md']} got []",
        "rels   decentraland__adr/content/ADR-128-realm-modifiers-for-worlds-in-renderer.md: want {'superseded_by': ['content/ADR-295-explorer-realm-modifiers.md']} got []",
        "rels   decentraland__adr/content/ADR-246-update-max-size-for-skins-and-thumbnail-validation-for-wearables.md: want {'amends': ['content/ADR-45-entities-v4.md', 'content/ADR-51-catalyst-content-validations.md']} got []",
        "rels   decentraland__adr/content/ADR-285-updated-friend-request.md: want {'supersedes': ['content/ADR-137-new-friend-request.md']} got []",
        "rels   decentraland__adr/content/ADR-287-update-emote-schema.md: want {'amends': ['content/ADR-74-add-emote-schema.md']} got []",
        "rels   decentraland__adr/content/ADR-289-explorer-client-scenes-signed-fetch.md: want {'amends': ['content/ADR-44-signed-fetch.md']} got []",
        "rels   decentraland__adr/content/ADR-290-remove-profile-snapshots.md: want {'amends': ['content/ADR-51-catalyst-content-validations.md']} got []",
        "rels   decentraland__adr/content/ADR-291-explorer-ecs-plugin-system.md: want {'supersedes': ['content/ADR-56-plugin-system.md']} got []",
        "rels   decentraland__adr/content/ADR-292-explorer-avatar-rendering-pipeline.md: want {'supersedes': ['content/ADR-65-avatar-system-for-renderer.md']} got []",
        "rels   decentraland__adr/content/ADR-293-explorer-emotes-system.md: want {'supersedes': ['content/ADR-66-emotes-system-for-renderer.md']} got []",
        "rels   decentraland__adr/content/ADR-294-explorer-runtime-architecture.md: want {'supersedes': ['content/ADR-67-runtime-architecture-for-renderer.md']} got []",
        "rels   decentraland__adr/content/ADR-295-explorer-realm-modifiers.md: want {'supersedes': ['content/ADR-128-realm-modifiers-for-worlds-in-renderer.md']} got []",
        "rels   decentraland__adr/content/ADR-296-explorer-unreleased-wearables-emotes-preview.md: want {'supersedes': ['content/ADR-53-test-collections-in-the-explorer.md']} got []",
        "rels   decentraland__adr/content/ADR-45-entities-v4.md: want {'amended_by': ['content/ADR-246-update-max-size-for-skins-and-thumbnail-validation-for-wearables.md']} got []",
        "rels   decentraland__adr/content/ADR-51-catalyst-content-validations.md: want {'amended_by': ['content/ADR-246-update-max-size-for-skins-and-thumbnail-validation-for-wearables.md']} got []",
        "rels   decentraland__adr/content/ADR-56-plugin-system.md: want {'superseded_by': ['content/ADR-291-explorer-ecs-plugin-system.md']} got []",
        "rels   decentraland__adr/content/ADR-58-third-party-assets-integration-v2-with-merkle-tree.md: want {'amends': ['content/ADR-55-third-party-curation-with-merkle-tree.md']} got []",
        "rels   decentraland__adr/content/ADR-65-avatar-system-for-renderer.md: want {'superseded_by': ['content/ADR-292-explorer-avatar-rendering-pipeline.md']} got []",
        "rels   decentraland__adr/content/ADR-66-emotes-system-for-renderer.md: want {'superseded_by': ['content/ADR-293-explorer-emotes-system.md']} got []",
        "rels   decentraland__adr/content/ADR-67-runtime-architecture-for-renderer.md: want {'superseded_by': ['content/ADR-294-explorer-runtime-architecture.md']} got []",
        "rels   devFancy__springboot-coupon-system/docs/architecture-decision-record/008-use-database-constraints-for-concurrency-control.md: want {'supersedes': ['UNRESOLVED:이전의 분산락 도입 결정']} got []",
        "rels   digitalservicebund__ris-backend-service/doc/adr/0014-error-handling-concept.md: want {'amended_by': ['doc/adr/0017-addressing-of-validation-errors.md']} got []",
        "rels   microsoft__semantic-kernel/docs/decisions/0038-completion-service-selection.md: want {'supersedes': ['docs/decisions/0015-completion-service-selection.md']} got []",
        "status cloudoperators__documentation/architecture-decision-records/004-greenhouse-resource-status-reporting.md: want proposed got unknown ('proposed | partially superseded by [008 Greenhouse Controller Lifecycle](008-greenhouse-controller-lifecycle.md)')",
        "status dapr__dapr/docs/decision_records/architecture/ARC-002-multitenancy.md: want draft got unknown ('Placeholder')",
        "status decentraland__adr/content/ADR-11-add-version-to-content-as-bundle-url.md: want proposed got draft ('Stagnant')",
        "status decentraland__adr/content/ADR-21-update-cycle-of-catalysts.md: want proposed got draft ('Stagnant')",
        "status decentraland__adr/content/ADR-8-dao-content-servers-and-local-content-servers.md: want proposed got draft ('Stagnant')",
        "status decentraland__adr/content/ADR-9-DecentralandInterface-evolution-plan.md: want proposed got draft ('Stagnant')",
        "status devFancy__springboot-coupon-system/docs/architecture-decision-record/008-use-database-constraints-for-concurrency-control.md: want ambiguous got superseded ('Superseded (이전의 분산락 도입 결정을 대체함)')",
        'status it-at-m__Wahllokalsystem/docs/src/technik/adr/adr-always-full-keycloak-migration.md: want accepted got None (None)',
        'status it-at-m__Wahllokalsystem/docs/src/technik/adr/adr-auslagerung-authority-strings.md: want rejected got None (None)',
        'status it-at-m__Wahllokalsystem/docs/src/technik/adr/adr-improve-getting-started-of-services.md: want accepted got None (None)',
        'status it-at-m__Wahllokalsystem/docs/src/technik/adr/adr001-renovate-ignore-lombok.md: want accepted got None (None)',
        'status it-at-m__Wahllokalsystem/docs/src/technik/adr/adr002-controller-service-datamodels.md: want accepted got None (None)',
        "status microsoft__semantic-kernel/docs/decisions/0032-agents.md: want proposed got unknown ('experimental')",
        "status microsoft__semantic-kernel/docs/decisions/0057-python-structured-output.md: want draft got unknown ('{in-progress}')",
    }),
}


def in_batch(item: str) -> bool:
    """Whether a disagreement line names a collection of the third batch."""
    return any(name in item for name in THIRD_BATCH)


def split(measure: str, items: Iterable[str]) -> tuple[list[str], list[str]]:
    """(disagreements the ratchet does not tolerate, tolerated ones) of one measure; prints the
    listed entries that no longer occur, so that they can be deleted."""
    known = KNOWN.get(measure, frozenset())
    items = list(items)
    tolerated = [x for x in items if x in known]
    for gone in sorted(known - set(items)):
        print(f"  ratchet {measure}: fixed, delete from tests/ratchet.py: {gone}")
    return [x for x in items if x not in known], tolerated

