"""A teacher's folder of lesson files as the Lessons menu lists it: titles sorted, at most MAX_LISTED read, broken
files left out with their reason, unchanged files not read again, a folder that is gone one line."""

import os
from dataclasses import replace

from attn_desktop.model.teaching.builtin_lesson_files import builtin_lesson_file
from attn_desktop.model.teaching.lesson_file_reading import read_lesson_file
from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file
from attn_desktop.model.teaching.lesson_folder import LessonFolderReader


def write(folder, name, title):
    path = folder / name
    write_lesson_file(replace(builtin_lesson_file("soft-lookup"), title=title), path)
    return path


def test_titles_sorted_broken_files_left_out_with_their_reason(tmp_path):
    write(tmp_path, "1.attn-lesson", "zebra")
    write(tmp_path, "2.attn-lesson", "Apple")
    (tmp_path / "3.attn-lesson").write_text('{"format": "attn-lesson", "version": 99}', encoding="utf-8")
    (tmp_path / "scene.json").write_text("{}", encoding="utf-8")
    (tmp_path / "folder.attn-lesson").mkdir()  # not a file: refused by the reader, never followed
    listed = LessonFolderReader().read_folder(tmp_path)
    assert [lesson.title for lesson in listed.lessons] == ["Apple", "zebra"]
    assert [path.name for path, _ in listed.refused] == ["3.attn-lesson", "folder.attn-lesson"]
    assert all(reason for _, reason in listed.refused) and listed.problem == "" and listed.not_listed == 0


def test_at_most_the_limit_is_read_and_the_rest_counted(tmp_path):
    for number in range(5):
        write(tmp_path, f"{number}.attn-lesson", f"Lesson {number}")
    listed = LessonFolderReader().read_folder(tmp_path, limit=3)
    assert [lesson.title for lesson in listed.lessons] == ["Lesson 0", "Lesson 1", "Lesson 2"]
    assert listed.not_listed == 2


def test_an_unchanged_file_is_not_read_again_a_changed_one_is(tmp_path):
    path = write(tmp_path, "a.attn-lesson", "First")
    reads = []

    def counting_read(file):
        reads.append(file)
        return read_lesson_file(file)

    reader = LessonFolderReader(read=counting_read)
    reader.read_folder(tmp_path)
    reader.read_folder(tmp_path)
    assert len(reads) == 1
    write(tmp_path, "a.attn-lesson", "Second, a longer title")
    os.utime(path, ns=(1, 1))
    assert [lesson.title for lesson in reader.read_folder(tmp_path).lessons] == ["Second, a longer title"]
    assert len(reads) == 2


def test_a_folder_that_is_gone_or_not_a_folder_is_one_line(tmp_path):
    gone = tmp_path / "usb" / "lessons"
    listed = LessonFolderReader().read_folder(gone)
    assert listed.lessons == () and listed.problem == f"Your lessons folder is not there: {gone}"
    a_file = write(tmp_path, "a.attn-lesson", "A")
    assert LessonFolderReader().read_folder(a_file).problem == f"Your lessons folder is not a folder: {a_file}"
