"""The built-in status vocabulary: words a record may state as its status, and the headings and
labels that introduce it, in the languages ADR tools and templates are written in.

Sources (read for this list; none of it comes from the logs we test on):

* Nygard's template and adr-tools: proposed, accepted, deprecated, superseded; MADR 2-4:
  ``proposed | rejected | accepted | deprecated | … | superseded by``; log4brains adds draft.
* Decision processes: PEP 1 (Draft, Active, Accepted, Provisional, Deferred, Rejected, Withdrawn,
  Final, Superseded, Replaced), Kubernetes KEPs (provisional, implementable, implemented,
  deferred, rejected, withdrawn, replaced), EIP-1 (Idea, Draft, Review, Last Call, Final,
  Stagnant, Withdrawn, Living), JEP 1 (Submitted, Candidate, Targeted, Integrated, Completed,
  Closed), Swift Evolution (awaiting review, active review, returned for revision, implemented),
  Rust RFCs (final comment period), Go proposals (likely accept, likely decline, hold), TC39
  (stage 0-4), Ember RFCs (exploring, ready for release, released, recommended, discontinued),
  NEP/SEP process pages (WIP, Public Call, Abandoned, Archived), IETF (Historic, Obsoleted by),
  pull-request reviews (open, merged).
* Translations of the Nygard and MADR templates and localised ADR templates and tools: German
  (vorgeschlagen, akzeptiert, angenommen, abgelehnt, veraltet, überholt, abgelöst durch, ersetzt
  durch), French (proposé, accepté, rejeté, déprécié, remplacé par, brouillon, en attente), Spanish
  (propuesto, aceptado, rechazado, obsoleto, reemplazado por, borrador), Portuguese (proposto,
  aceito, rejeitado, depreciado, descontinuado, substituído por), Italian (proposta, accettata,
  approvato, rifiutata, deprecata, sostituita da, bozza), Dutch (voorgesteld, geaccepteerd,
  goedgekeurd, afgewezen, verouderd, vervangen door), Russian (предложено, принято, отклонено,
  устарело, заменено), Chinese (提议, 通过, 接受, 采纳, 完成, 拒绝, 废弃, 弃用, 取代, 替代, 草稿),
  Japanese (提案, 承認, 採用, 却下, 廃止, 非推奨, 置換, 下書き), Korean (제안됨, 승인됨, 채택됨,
  거부됨, 폐기됨, 대체됨, 초안).

A word maps to one of proposed, accepted, rejected, deprecated, superseded, draft. Where a
process word is ambiguous the reading that says whether the decision is in force wins: PEP's
"Provisional" (accepted provisionally) and "Active" are accepted, "Deferred" and "On hold" are
proposed (not decided yet), "Withdrawn" and "Abandoned" are rejected (never in force),
"Historic", "Reverted" and "Retired" are deprecated; EIP's "Stagnant" (a draft or review left
idle) is proposed (not decided); "In progress" says the record itself is still being written:
draft. Words that are not statuses but say one plainly (a loanword such as "mergé", an
"experimental" design, a "Placeholder" stub) are guesses (``STATUS_GUESSES``): read, and
reported by ADR103 until the log maps them. ``docs/statuses.md`` is the user's copy.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec


def _words(status: str, *groups: str) -> dict[str, str]:
    """``{word: status}`` for words separated by ``;`` (a word may hold spaces)."""
    return {w.strip().casefold(): status for g in groups for w in g.split(";") if w.strip()}


_PROPOSED = _words(
    "proposed",
    "proposed; pending; pending review; in review; under review; review; needs review;"
    " ready for review; awaiting review; scheduled for review; active review; in discussion;"
    " under discussion; discussion; discussed; discussing; under consideration; considering;"
    " public discussion; design review;"
    " open; on hold; hold; deferred; postponed; paused; suggested; submitted; candidate;"
    " request for comments; rfc; last call; public call; final comment period; fcp;"
    " returned for revision; exploring; tentative; proposed to target; ongoing; stagnant;"
    " likely accept; likely decline; stage 0; stage 1; stage 2; stage 3",
    "vorgeschlagen; in prüfung; in diskussion; in abstimmung; zurückgestellt",  # de
    "proposé; proposée; en attente; en cours; en discussion; en revue; en révision",  # fr
    "propuesto; propuesta; pendiente; en revisión; en discusión",  # es
    "proposto; proposta; pendente; em análise; em revisão; em discussão",  # pt, it
    "in discussione; in revisione; in attesa",  # it
    "voorgesteld; in bespreking; in behandeling; ter review",  # nl
    "предложено; предложен; предложена; на рассмотрении; обсуждается",  # ru
    "提议; 提议中; 已提议; 提案; 建议; 待定; 审核中; 评审中; 讨论中; 提議",  # zh
    "提案中; 検討中; 保留; 保留中; レビュー中",  # ja
    "제안; 제안됨; 검토 중; 검토중; 보류",  # ko
)
_ACCEPTED = _words(
    "accepted",
    "accepted; approved; agreed; adopted; decided; implemented; implementable; done; complete;"
    " completed; stable; active; activated; final; finalized; finalised; living; integrated;"
    " delivered;"
    " released; shipped; merged; ratified; endorsed; enacted; in effect; effective; in force;"
    " targeted; ready for release; recommended; provisional; partly superseded;"
    " partially superseded; confirmed; signed off;"
    " conditionally accepted; conditionally approved; stage 4",
    "akzeptiert; angenommen; genehmigt; beschlossen; entschieden; freigegeben; umgesetzt;"
    " gültig",  # de
    "accepté; acceptée; approuvé; approuvée; validé; validée; adopté; adoptée; décidé;"
    " décidée; mis en œuvre; implémenté; implémentée",  # fr
    "aceptado; aceptada; aprobado; aprobada; adoptado; adoptada; implementado; implementada;"
    " vigente",  # es
    "aceito; aceita; aceite; aprovado; aprovada; adotado; adotada",  # pt
    "accettato; accettata; approvato; approvata; adottato; adottata; implementato",  # it
    "geaccepteerd; aanvaard; goedgekeurd; besloten; vastgesteld; geïmplementeerd",  # nl
    "принято; принят; принята; утверждено; утверждён; одобрено; реализовано",  # ru
    "通过; 已通过; 接受; 已接受; 批准; 已批准; 采纳; 已采纳; 采用; 完成; 已完成; 实施; 已实施;"
    " 通過; 核准; 採納",  # zh
    "承認; 承認済み; 採用; 採択; 承諾; 決定; 実装済み; 完了",  # ja
    "승인; 승인됨; 수락; 수락됨; 채택; 채택됨; 결정됨",  # ko
)
_REJECTED = _words(
    "rejected",
    "rejected; declined; refused; withdrawn; abandoned; dropped; discarded; not accepted;"
    " vetoed; denied; cancelled; canceled; won't do; wont do; wontfix",
    "abgelehnt; verworfen; zurückgezogen",  # de
    "rejeté; rejetée; refusé; refusée; abandonné; abandonnée; retiré; retirée",  # fr
    "rechazado; rechazada; denegado; descartado; descartada; retirado",  # es
    "rejeitado; rejeitada; recusado; recusada",  # pt
    "rifiutato; rifiutata; respinto; respinta; scartato; scartata; ritirato",  # it
    "afgewezen; verworpen; ingetrokken",  # nl
    "отклонено; отклонён; отклонен; отклонена; отвергнуто",  # ru
    "拒绝; 已拒绝; 否决; 驳回; 拒絕",  # zh
    "却下; 拒否; 否決; 不採用",  # ja
    "거부; 거부됨; 반려; 기각",  # ko
)
_DEPRECATED = _words(
    "deprecated",
    "deprecated; obsolete; retired; reverted; historic; historical; archived; sunset; sunsetted;"
    " discontinued; inactive; expired; revoked; rescinded; outdated; no longer valid;"
    " no longer applicable; invalidated; rolled back",
    "veraltet; überholt; außer kraft; abgekündigt; zurückgenommen",  # de
    "déprécié; dépréciée; obsolète; périmé; périmée; abrogé; abrogée",  # fr
    "obsoleto; obsoleta; desaprobado; en desuso; anticuado",  # es, pt
    "depreciado; depreciada; descontinuado; descontinuada",  # pt
    "deprecato; deprecata; non più valido; non più valida",  # it
    "verouderd; vervallen; niet meer van toepassing; ingetrokken besluit",  # nl
    "устарело; устарел; устаревшее; отменено; упразднено",  # ru
    "废弃; 已废弃; 弃用; 已弃用; 过时; 已过时; 廢棄; 棄用",  # zh
    "廃止; 非推奨; 廃止予定",  # ja
    "폐기; 폐기됨; 사용 중단; 더 이상 사용되지 않음",  # ko
)
_SUPERSEDED = _words(
    "superseded",
    "superseded; superceded; replaced; obsoleted by; overridden; overruled; substituted",
    "ersetzt; abgelöst",  # de
    "remplacé; remplacée; supplanté; supplantée",  # fr
    "reemplazado; reemplazada; sustituido; sustituida; superado; superada",  # es
    "substituído; substituída; substituido; substituida; suplantado; suplantada",  # pt
    "sostituito; sostituita; superato; superata",  # it
    "vervangen",  # nl
    "заменено; заменён; заменен; заменена",  # ru
    "取代; 已取代; 已被取代; 替代; 已替代; 已被替代; 被替代",  # zh
    "置換; 置き換え; 置き換え済み; 代替",  # ja
    "대체; 대체됨; 교체됨",  # ko
)
_DRAFT = _words(
    "draft",
    "draft; drafted; wip; work in progress; in progress; incomplete; idea; early draft; sketch;"
    " todo; to do; not started; in preparation; under construction",
    "entwurf; in arbeit",  # de
    "brouillon; ébauche",  # fr
    "borrador",  # es
    "rascunho",  # pt
    "bozza",  # it
    "concept; ontwerp",  # nl
    "черновик",  # ru
    "草稿; 草案",  # zh
    "下書き; 草案",  # ja
    "초안",  # ko
)

# Status words -> normalised status. Keys are casefolded. Users extend this with the
# ``statuses`` config key (``{"on hold" = "proposed"}``).
STATUS_SYNONYMS: Mapping[str, str] = {
    **_DRAFT,
    **_PROPOSED,
    **_ACCEPTED,
    **_REJECTED,
    **_DEPRECATED,
    **_SUPERSEDED,
}


class _Frozen(dict[str, str]):
    """A mapping that hashes by identity: one table, memoised by the status parser."""

    def __hash__(self) -> int:  # type: ignore[override]
        return id(self)


# Words that are not statuses but say one plainly: a guess, not a reading. The status is read
# from them, and ADR103 says it was guessed (map the word with ``statuses`` to make it a word
# of the log's vocabulary). Pull-request states, a design's maturity, a stub's label.
STATUS_GUESSES: Mapping[str, str] = _Frozen(
    {
        **_words("accepted", "mergé; mergée; partially accepted; partly accepted"),
        **_words("proposed", "proposal; experimental; experiment"),
        **_words("draft", "placeholder; stub"),
    }
)

# Headings and labels that introduce the status (casefolded). A heading names the status when
# every word of it is one of these (``## Status``, ``## 상태 (Status)``, ``## Status / 状态``).
STATUS_HEADINGS: tuple[str, ...] = (
    "status",
    "state",
    "statut",  # fr
    "état",  # fr
    "etat",
    "estado",  # es, pt
    "situação",  # pt
    "stato",  # it
    "stand",  # de
    "zustand",  # de
    "статус",  # ru
    "состояние",  # ru
    "状态",  # zh
    "狀態",  # zh (traditional)
    "ステータス",  # ja
    "状態",  # ja
    "상태",  # ko
)


# The words a new record's status is written in, per language: what adrguard writes for a
# status the log never wrote itself, in the language of the log's own status words
# (``adrguard new`` in a French log: ``proposé``). The first word of each translation above,
# in the order proposed, accepted, rejected, deprecated, superseded, draft. A language whose
# words agree with the noun (la décision: ``acceptée``) has its feminine forms as a second
# entry (``fr-f``), chosen when the log's words are those. Every word is a key of
# STATUS_SYNONYMS for the same status (a test checks). ``labels``: the language's status
# headings, which tell the language of a log that writes no status word; ``by``: how it says
# "superseded by X" (``{word}``: the log's word, ``{target}``: the link) so that the parser
# reads X as the successor (:mod:`adrguard.core.parse.successors`).
class Language(msgspec.Struct, frozen=True):
    words: Mapping[str, str]  # status -> word
    labels: tuple[str, ...] = ()
    by: str = ""  # "{word} by {target}"


_ORDER = ("proposed", "accepted", "rejected", "deprecated", "superseded", "draft")


def _language(words: str, labels: str = "", by: str = "") -> Language:
    split = [w.strip() for w in words.split(";")]
    return Language(dict(zip(_ORDER, split, strict=True)),
                    tuple(w.strip() for w in labels.split(";") if w.strip()), by)


LANGUAGES: Mapping[str, Language] = {
    "en": _language("proposed; accepted; rejected; deprecated; superseded; draft",
                    "status; state", "{word} by {target}"),
    "de": _language("vorgeschlagen; akzeptiert; abgelehnt; veraltet; ersetzt; entwurf",
                    "stand; zustand", "{word} durch {target}"),
    "fr": _language("proposé; accepté; rejeté; déprécié; remplacé; brouillon",
                    "statut; état; etat", "{word} par {target}"),
    "fr-f": _language("proposée; acceptée; rejetée; dépréciée; remplacée; brouillon",
                      "", "{word} par {target}"),
    "es": _language("propuesto; aceptado; rechazado; obsoleto; reemplazado; borrador",
                    "estado", "{word} por {target}"),
    "es-f": _language("propuesta; aceptada; rechazada; obsoleta; reemplazada; borrador",
                      "", "{word} por {target}"),
    "pt": _language("proposto; aceito; rejeitado; depreciado; substituído; rascunho",
                    "situação", "{word} por {target}"),
    "pt-f": _language("proposta; aceita; rejeitada; depreciada; substituída; rascunho",
                      "", "{word} por {target}"),
    "it": _language("proposto; accettato; rifiutato; deprecato; sostituito; bozza",
                    "stato", "{word} da {target}"),
    "it-f": _language("proposta; accettata; rifiutata; deprecata; sostituita; bozza",
                      "", "{word} da {target}"),
    "nl": _language("voorgesteld; geaccepteerd; afgewezen; verouderd; vervangen; concept",
                    "", "{word} door {target}"),
    "ru": _language("предложено; принято; отклонено; устарело; заменено; черновик",
                    "статус; состояние", "{word} {target}"),
    "zh": _language("提议; 通过; 拒绝; 废弃; 取代; 草稿", "状态; 狀態", "已被 {target} 取代"),
    "ja": _language("提案; 承認; 却下; 廃止; 置換; 下書き", "ステータス; 状態",
                    "{target} によって置き換え"),
    "ko": _language("제안됨; 승인됨; 거부됨; 폐기됨; 대체됨; 초안", "상태", "{word}: {target}"),
}
