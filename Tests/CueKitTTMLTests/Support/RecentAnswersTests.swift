import Testing

@testable import CueKitTTML

/// The last few answers of a lookup: each one kept is given back for its key and no other, the
/// oldest goes first, and keys that share a fingerprint are told apart.
struct RecentAnswersTests {
    /// A key whose fingerprint is deliberately weak: only its length.
    private struct Word: RecentAnswerKey, Hashable {
        var text: String
        var fingerprint: Int { text.count }
    }

    @Test func answersAreGivenForTheirKeysOnly() {
        var answers = RecentAnswers<Word, Int>(capacity: 4)
        #expect(answers.answer(for: Word(text: "left")) == nil)
        answers.remember(Word(text: "left"), 1)
        answers.remember(Word(text: "down"), 2)  // the same fingerprint as "left"
        #expect(answers.answer(for: Word(text: "left")) == 1)
        #expect(answers.answer(for: Word(text: "down")) == 2)
        #expect(answers.answer(for: Word(text: "west")) == nil)
    }

    @Test func theOldestAnswerGoesFirst() {
        var answers = RecentAnswers<Word, Int>(capacity: 3)
        for (value, text) in ["a", "bb", "ccc", "dddd", "eeeee"].enumerated() { answers.remember(Word(text: text), value) }
        #expect(answers.answer(for: Word(text: "a")) == nil)
        #expect(answers.answer(for: Word(text: "bb")) == nil)
        #expect(answers.answer(for: Word(text: "ccc")) == 2)
        #expect(answers.answer(for: Word(text: "dddd")) == 3)
        #expect(answers.answer(for: Word(text: "eeeee")) == 4)
        answers.remember(Word(text: "f"), 5)  // in place of "ccc", the oldest
        #expect(answers.answer(for: Word(text: "ccc")) == nil)
        #expect(answers.answer(for: Word(text: "dddd")) == 3)
        #expect(answers.answer(for: Word(text: "f")) == 5)
        answers.removeAll()
        #expect(answers.answer(for: Word(text: "f")) == nil)
    }

    /// Past the recent ones, kept answers are found by key; past the hashed capacity, the table
    /// starts over, and what is gone is made again.
    @Test func keptAnswersOutliveTheRecentOnesUpToTheirCapacity() {
        var answers = KeptAnswers<Word, Int>(recent: 2, capacity: 4)
        for (value, text) in ["a", "bb", "cc", "ddd"].enumerated() { answers.keep(Word(text: text), value) }
        // "a" and "bb" left the recent two, not the table.
        #expect(answers.answer(for: Word(text: "a")) == 0)
        #expect(answers.answer(for: Word(text: "bb")) == 1)
        #expect(answers.answer(for: Word(text: "cc")) == 2)
        #expect(answers.answer(for: Word(text: "zz")) == nil)
        // A fifth key starts the table over: the recent ones remain.
        answers.keep(Word(text: "eeeee"), 4)
        #expect(answers.answer(for: Word(text: "eeeee")) == 4)
        #expect(answers.answer(for: Word(text: "ddd")) == nil)
    }
}
