"""bench/locomo.py runs on any file of LoCoMo's schema and prints the figures the issue names."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import REPO

FIGURES = {
    "questions",
    "recall_any_at_5",
    "recall_any_at_10",
    "recall_all_at_10",
    "session_hit_at_5",
    "session_hit_at_10",
    "evidence_in_budget",
    "median_latency_ms",
}


def conversation() -> dict:
    """A small conversation in LoCoMo's shape: two sessions, an image turn, four questions."""
    session_1 = [
        {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a grey cat named Pixel last week."},
        {"speaker": "Bo", "dia_id": "D1:2", "text": "Lovely! I started pottery classes downtown."},
        {
            "speaker": "Ana",
            "dia_id": "D1:3",
            "text": "Look at this.",
            "img_url": ["https://example.invalid/x.jpg"],
            "blip_caption": "a photo of a sailboat on a lake",
        },
    ]
    session_2 = [
        {"speaker": "Bo", "dia_id": "D2:1", "text": "My pottery teacher says my bowls improved."},
        {"speaker": "Ana", "dia_id": "D2:2", "text": "Pixel knocked a plant off the shelf."},
    ]
    return {
        "sample_id": "tiny-1",
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": session_1,
            "session_2_date_time": "10:04 am on 3 June, 2023",
            "session_2": session_2,
            "session_3_date_time": "9:00 am on 1 July, 2023",
        },
        "qa": [
            {
                "question": "What is the name of Ana's cat?",
                "answer": "Pixel",
                "evidence": ["D1:1"],
                "category": 4,
            },
            {
                "question": "When did Bo start pottery?",
                "answer": "May 2023",
                "evidence": ["D1:2"],
                "category": 2,
            },
            {
                "question": "What has Bo been making in pottery?",
                "answer": "bowls",
                "evidence": ["D1:2", "D2:1"],
                "category": 1,
            },
            {
                "question": "What boat did Ana show?",
                "answer": "a sailboat",
                "evidence": ["D1:3"],
                "category": 3,
            },
            {
                "question": "What is Bo's dog called?",
                "adversarial_answer": "Rex",
                "evidence": ["D1:2"],
                "category": 5,
            },
        ],
    }


def test_locomo_bench_reports_mem_and_the_baseline_on_any_file_of_the_schema(tmp_path):
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps([conversation()]))
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "locomo.py"), "--data", str(data), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert set(figures) == {"mem", "baseline"}
    for system in figures.values():
        assert set(system) == FIGURES | {"by_category"}
        assert system["questions"] == 4  # category 5 is not asked
        assert set(system["by_category"]) == {"multi_hop", "temporal", "open_domain", "single_hop"}
        for row in system["by_category"].values():
            assert set(row) == FIGURES
    mem = figures["mem"]
    # Five turns fit in any budget: every evidence turn is in the block, the top 5 holds them all.
    assert mem["evidence_in_budget"] == 1.0 and mem["recall_all_at_10"] == 1.0
    assert mem["by_category"]["single_hop"]["recall_any_at_5"] == 1.0
    assert mem["session_hit_at_10"] >= mem["recall_any_at_10"]  # a turn's session is hit too


def test_locomo_bench_refuses_a_file_that_is_not_the_schema(tmp_path):
    data = tmp_path / "bad.json"
    data.write_text('{"not": "a list"}')
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "locomo.py"), "--data", str(data)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.startswith("locomo: ") and "Traceback" not in result.stderr
