import ReactorTraceFormat

/// One question's use of the index beside a trace: loads and checks it once,
/// reads the trace only as far as the question needs when the index fits it,
/// and otherwise reads it all and leaves a new index beside it.
///
/// The index is never trusted blindly: it is checked against the trace's size
/// and end bytes before use, and every chunk the pass reads is checked
/// against it; at the first difference the pass reads on to the end, as
/// without an index, and the index is rebuilt.
final class TraceIndexSession {
    let tracePath: String
    /// The index in use (nil once dropped: the pass then leaves a new one).
    var index: TraceIndex?
    /// The snapshot the latest model started from, if it started from one.
    private(set) var resumedFrom: IndexedMoments.Entry?
    private let note: (String) -> Void
    private var noted = false
    /// False for an index the caller holds (``TraceIndexUse/given(_:)``): nothing is written beside the trace.
    let writes: Bool
    /// How many batches of events this session read from the trace (none when the index answered).
    private(set) var batchesRead = 0
    /// Whether the latest value history was answered from the index's light points (``IndexedLightPoints``).
    var historyFromLightPoints = false

    init(tracePath: String, note: @escaping (String) -> Void) {
        self.tracePath = tracePath
        self.note = note
        writes = true
        do {
            index = try TraceIndex.load(forTrace: tracePath)
        } catch {
            noteOnce("\(TraceIndex.path(forTrace: tracePath)): \(error); rebuilding it")
        }
    }

    /// A session over `index`, held by the caller: used as one loaded from disk is, never written.
    init(tracePath: String, given index: TraceIndex) {
        self.tracePath = tracePath
        self.index = index
        note = { _ in }
        writes = false
    }

    private func noteOnce(_ line: String) {
        guard !noted else { return }
        noted = true
        note(line)
    }

    /// The one note for an index that cannot be used: `reason`, and that it is rebuilt.
    func noteAndRebuild(_ reason: String) {
        noteOnce("\(TraceIndex.path(forTrace: tracePath)): \(reason); rebuilding it")
    }

    /// Counts a batch read from the trace (``batchesRead``).
    func countBatchRead() { batchesRead += 1 }

    /// Feeds the trace to `builder` as ``TraceFile/model(path:builder:progress:)``
    /// does, with the same model and report; with a fitting index, only as far
    /// as the builder's moment (``TraceModelOptions/until``, or the decided
    /// moment of ``TraceModelOptions/untilAction``) needs, and not at all for
    /// the plain model of the whole trace when the index keeps it (a pass that
    /// builds that model leaves it in the index).
    ///
    /// A builder of options that resume from a snapshot (``TraceModelBuilder/resumes(_:)``:
    /// `state --at`, `graph --at`) starts from the latest of the index's snapshots
    /// its moment allows and reads only the chunks after it. The pass for the plain
    /// model tracks values too and leaves snapshots in the index.
    func model(builder: TraceModelBuilder, progress: ((Int) -> Void)?) throws(TraceFileError)
        -> (TraceModel, TraceReadReport) {
        let keepsModel = TraceModel.isIndexed(builder.options)
        if keepsModel, let index, let kept = index.model { return (kept.model, index.readReport(path: tracePath)) }
        if let (target, limit) = Self.explainedTarget(builder.options) {
            if let answered = explanationFromIndex(of: target, limit: limit) { return answered }
            // Kept under this user's key only (IndexKey).
            if IndexKey.current != nil {
                // The first `why` explains every computation, for every later `why` of any (AllExplanations).
                if limit <= AllExplanations.listed, index?.allExplanations == nil,
                   let answered = try explainingEverything(answering: target, limit: limit, progress: progress) {
                    return answered
                }
                return try explaining(target: target, limit: limit, builder, progress: progress)
            }
        }
        if let name = builder.options.valueHistoryOf, let answered = valueHistoryFromIndex(of: name, builder.options) {
            return answered
        }
        if let answered = valueHistoryFromRows(builder) { return answered }
        if let answered = valueHistoryFromPositions(builder) { return answered }
        resumedFrom = nil
        if let resumed = resumedModel(builder: builder, progress: progress) { return resumed }
        // The pass that leaves the plain model leaves snapshots too, from a builder that tracks values
        // (left out of the model kept); so does a moment's or a history's pass when the index has none,
        // beside its own builder (not for an index the caller holds: it is never written).
        let snapshots = IndexKey.current != nil && writes
            && (keepsModel || (TraceModelBuilder.resumes(builder.options) || TraceModelBuilder.resumesHistory(builder.options))
                && !(index?.hasSnapshots ?? false) && builder.consumedEvents == 0)
        let indexBuilder = snapshots ? TraceModelBuilder(options: TraceModelBuilder.checkpointOptions,
                                                         numbersActions: true) : nil
        let answersFromIndexBuilder = keepsModel && indexBuilder != nil
        var kept: TraceModel?
        func keep(_ report: TraceReadReport) -> TraceModel {
            if let kept { return kept }
            let model = Self.plainModel(of: indexBuilder ?? builder, report, forgettingValues: indexBuilder != nil)
            kept = model
            return model
        }
        // A pass stops early only when the index holds the names the rest of the trace gives.
        let knowsNames = index?.moments != nil
        let (report, stoppedEarly) = try forEachBatch(progress: progress,
                                                      until: { knowsNames ? builder.options.until ?? builder.decidedActionMoment : nil },
                                                      keeping: keepsModel || snapshots ? keep : nil,
                                                      snapshotting: indexBuilder) {
            if !answersFromIndexBuilder { builder.consume($0) }
        }
        if stoppedEarly, let index, let moments = index.moments,
           let bound = builder.options.until ?? builder.decidedActionMoment {
            moments.name(in: builder, from: index.firstUnread(atOrBefore: bound))
        }
        var model: TraceModel
        if answersFromIndexBuilder || keepsModel {
            model = keep(report)
        } else {
            model = builder.finish()
            model.skippedEvents = report.skippedEvents
            model.clockEvents = report.clockEvents
        }
        if stoppedEarly, let index {
            // What the unread rest would have added to the figures that count every event read.
            model.eventCount = index.events
            model.threadCount = max(model.threadCount, index.threadCount)
            model.latestTimestampRead = max(model.latestTimestampRead, index.latestTimestamp)
            model.hasValues = model.hasValues || index.hasValues
        }
        return (model, report)
    }

    /// The plain model `builder` built in a pass that went as `report` says, for the index to
    /// keep (without values when `forgettingValues`: the builder tracked them for snapshots).
    static func plainModel(of builder: TraceModelBuilder, _ report: TraceReadReport,
                           forgettingValues: Bool) -> TraceModel {
        var model = builder.finish()
        if forgettingValues { model.forgetValues() }
        model.skippedEvents = report.skippedEvents
        model.clockEvents = report.clockEvents
        return model
    }

    /// The one target of options that explain one computation and ask nothing else of the
    /// pass (`why`), with how many runs to list one by one.
    static func explainedTarget(_ options: TraceModelOptions) -> (String, Int)? {
        guard options.explaining.count == 1, let target = options.explaining.first
        else { return nil }
        var rest = options
        rest.explaining = []
        rest.tracksValues = false
        rest.tracksCauses = false
        return TraceModel.isIndexed(rest) ? (target, options.whyEntryLimit) : nil
    }

    /// `why target` from the explanations the index keeps, or else from the chunks that mention
    /// its computations (``explanationFromChunks(of:limit:model:index:)``): the plain model, with
    /// the one explanation a pass would have built (none for a name no computation has); nil
    /// when the index cannot say.
    func explanationFromIndex(of target: String, limit: Int) -> (TraceModel, TraceReadReport)? {
        guard let index, let kept = index.model else { return nil }
        var report: WhyReport?
        do {
            report = try index.allExplanations?.report(for: target, limit: limit, model: kept.model)
                ?? (index.explanations ?? .none).report(for: target, limit: limit, model: kept.model)
        } catch {
            noteOnce("\(TraceIndex.path(forTrace: tracePath)): \(error); rebuilding it")
            self.index = nil
            return nil
        }
        if report == nil { report = explanationFromChunks(of: target, limit: limit, model: kept.model, index: index) }
        guard let report, let index = self.index else { return nil }
        var model = kept.model
        model.explanations = [target: report]
        return (model, index.readReport(path: tracePath))
    }

    /// `why target` by a pass, as without the index, leaving its explanation in the index for
    /// the next `why target` (with the plain model, built in the same pass, when the index lacks it).
    private func explaining(target: String, limit: Int, _ builder: TraceModelBuilder,
                            progress: ((Int) -> Void)?) throws(TraceFileError) -> (TraceModel, TraceReadReport) {
        let plain = index?.model == nil ? TraceModelBuilder() : nil
        var explained: TraceModel?
        func finishExplaining(_ report: TraceReadReport) -> TraceModel {
            if let explained { return explained }
            var model = builder.finish()
            model.skippedEvents = report.skippedEvents
            model.clockEvents = report.clockEvents
            explained = model
            return model
        }
        let traceSize = (try? TraceIndex.identity(ofTrace: tracePath))?.size ?? 0
        let (report, _) = try forEachBatch(progress: progress, until: { nil }, keeping: plain.map { plain in
            { report in
                var model = plain.finish()
                model.skippedEvents = report.skippedEvents
                model.clockEvents = report.clockEvents
                return model
            }
        }, explaining: { report, kept in
            guard let why = finishExplaining(report).why(target), !why.isUnknown else { return kept }
            return (kept ?? .none).adding(why, limit: limit, budget: KeptExplanations.budget(forTrace: traceSize))
        }) { batch in
            builder.consume(batch)
            plain?.consume(batch)
        }
        return (finishExplaining(report), report)
    }

    /// `why target` by one pass that explains every computation and leaves them all in the
    /// index (``AllExplanations``, with the plain model when the index lacks it); the answer is
    /// the one the index then gives. Nil when that pass cannot answer (a target it left out, or
    /// an index that did not match the trace): then `why` is a pass of its own.
    private func explainingEverything(answering target: String, limit: Int, progress: ((Int) -> Void)?)
        throws(TraceFileError) -> (TraceModel, TraceReadReport)? {
        var options = TraceModelOptions(whyEntryLimit: AllExplanations.listed, tracksValues: true, tracksCauses: true)
        options.explainsEverything = true
        let everything = TraceModelBuilder(options: options)
        let plain = index?.model == nil ? TraceModelBuilder() : nil
        var plainModel: TraceModel?
        func finishPlain(_ report: TraceReadReport) -> TraceModel? {
            guard let plain else { return nil }
            if let plainModel { return plainModel }
            var model = plain.finish()
            model.skippedEvents = report.skippedEvents
            model.clockEvents = report.clockEvents
            plainModel = model
            return model
        }
        var section: AllExplanations?
        func explainAll() -> AllExplanations? {
            if section == nil { section = everything.allExplanations() }
            return section
        }
        let (report, _) = try forEachBatch(progress: progress, until: { nil },
                                           keeping: plain == nil ? nil : { finishPlain($0)! },
                                           explainingAll: { _ in explainAll() }) { batch in
            everything.consume(batch)
            plain?.consume(batch)
        }
        // A kept model is the trace's only if the pass found every chunk as the index says (else it was dropped).
        guard let model = finishPlain(report) ?? index?.model?.model, let all = explainAll(),
              let why = try? all.report(for: target, limit: limit, model: model) else { return nil }
        var answered = model
        answered.explanations = [target: why]
        return (answered, report)
    }

    /// `history name` from the kept plain model when it answers without values: a name
    /// no node has (suggestions come from the model's names), or a trace without values.
    private func valueHistoryFromIndex(of name: String, _ options: TraceModelOptions) -> (TraceModel, TraceReadReport)? {
        var rest = options
        rest.valueHistoryOf = nil
        rest.tracksValues = false
        guard TraceModel.isIndexed(rest), let index, let kept = index.model,
              kept.model.nodes(named: name).isEmpty || !kept.model.hasValues else { return nil }
        return (kept.model, index.readReport(path: tracePath))
    }

    /// Lends `body` the trace's batches in order, as ``TraceFile/forEachBatch(path:progressEvery:progress:_:)``
    /// does, and returns the same report. With a fitting index it stops once
    /// no chunk left can hold an event at or before `until()` (asked after
    /// each batch; nil: not known yet), and the report is the index's (the
    /// whole trace's), with true; otherwise it reads to the end and leaves a
    /// new index beside the trace. `keeping`, when given, makes the plain
    /// model of the whole pass (from its report) for the index to keep;
    /// `profiling`, the whole trace's profile (kept beside a model only).
    /// `snapshotting`, the builder whose snapshots the index keeps, is fed each
    /// batch here, after `body` (not by it): the index's sections come from its walk.
    func forEachBatch(progress: ((Int) -> Void)?, until: () -> UInt64?,
                      keeping: ((TraceReadReport) -> TraceModel)? = nil,
                      profiling: ((TraceReadReport) -> IndexedProfile)? = nil,
                      explaining: ((TraceReadReport, KeptExplanations?) -> KeptExplanations?)? = nil,
                      explainingAll: ((TraceReadReport) -> AllExplanations?)? = nil,
                      snapshotting: TraceModelBuilder? = nil,
                      _ body: (borrowing TraceEventBatch) -> Void) throws(TraceFileError)
        -> (TraceReadReport, stoppedEarly: Bool) {
        let identity = try? TraceIndex.identity(ofTrace: tracePath)
        var trusted = index
        var snapshotter = snapshotting.flatMap { MomentSnapshotter(builder: $0) }
        // Per-node sections go with the snapshots they are read from.
        var pass = IndexPassCollector(takesSections: snapshotter != nil)
        // The value rows come from the snapshots' builder, which gives each value its root action.
        let valueRows = pass.takesSections ? ValueRowsCollector(traceSize: identity?.size ?? 0) : nil
        snapshotting?.valueRows = valueRows
        defer { snapshotting?.valueRows = nil }
        var position = 0
        let (report, stoppedEarly) = try TraceFile.forEachBatchWithOffsets(path: tracePath, progress: progress) { batch in
            body(batch)
            batchesRead += 1
            if let snapshotting {
                pass.add(batch, feeding: snapshotting)
            } else {
                pass.add(batch)
            }
        } ended: { endOffset, reader in
            let batch = pass.table.finishBatch(endOffset: endOffset)
            if let snapshotting, pass.takesSections {
                valueRows?.read(upTo: endOffset)
                snapshotter?.ended(batch, builder: snapshotting, reader: reader)
                pass.lightPoints.ended(batch, builder: snapshotting, reader: reader)
            }
            guard let index = trusted else { return true }
            guard position < index.batches.count, index.batches[position] == batch else {
                trusted = nil
                noteOnce("\(TraceIndex.path(forTrace: tracePath)): does not match the trace; rebuilding it")
                return true
            }
            position += 1
            // Read on unless no later chunk can hold an event at or before the moment.
            guard let bound = until() else { return true }
            return !index.nothingAtOrBefore(bound, from: position)
        }
        if stoppedEarly, let index = trusted { return (index.readReport(path: tracePath), true) }
        if let snapshotting { snapshotter?.finished(builder: snapshotting) }
        let moments = snapshotter?.moments(names: pass.table.names)
        let collector = pass.table
        let positions = pass.takesSections ? Optional(pass.positions) : nil
        let lightPoints = pass.takesSections ? Optional(pass.lightPoints) : nil
        let mentions = pass.takesSections ? Optional(pass.mentions) : nil
        let rows = valueRows.flatMap { collector in
            snapshotting.map { builder in { collector.valueRows(id: builder.nodeID, valueEvents: builder.valueEvents) } }
        }
        if trusted == nil || position != trusted?.batches.count {
            index = nil
            leaveIndex(collector.index(identity:report:), report: report, identity: identity, keeping: keeping,
                       profiling: profiling, explaining: explaining, explainingAll: explainingAll, moments: moments,
                       positions: positions?.positions, lightPoints: lightPoints?.lightPoints,
                       mentions: mentions?.mentions, valueRows: rows)
        } else if let fitting = trusted, IndexKey.current != nil,
                  (keeping != nil && (fitting.model == nil || !fitting.hasSnapshots && moments?.entries.isEmpty == false))
                    || (profiling != nil && fitting.profile == nil && (fitting.model != nil || keeping != nil))
                    || explaining != nil || explainingAll != nil {
            // The index fits and lacks the model, profile, explanation or snapshots this pass built: the same index, with them.
            leaveIndex({ _, _ in fitting }, report: report, identity: identity,
                       keeping: fitting.model == nil ? keeping : nil, profiling: profiling, explaining: explaining,
                       explainingAll: explainingAll, moments: moments, positions: positions?.positions,
                       lightPoints: lightPoints?.lightPoints, mentions: mentions?.mentions, valueRows: rows)
        }
        return (report, false)
    }

    /// The model `builder` builds, read from the latest snapshot of the index its
    /// moment allows on (as ``model(builder:progress:)`` describes), with the
    /// whole trace's report; nil when there is no such snapshot, or when the
    /// snapshot or the chunks after it do not match the index (then the builder is
    /// as new, the index is dropped to be rebuilt, and the pass reads from the start).
    private func resumedModel(builder: TraceModelBuilder, progress: ((Int) -> Void)?)
        -> (TraceModel, TraceReadReport)? {
        guard let index, let moments = index.moments, TraceModelBuilder.resumes(builder.options),
              builder.consumedEvents == 0,
              let entry = moments.latest(until: builder.options.until, untilAction: builder.options.untilAction)
        else { return nil }
        func dropIndex(_ reason: String) -> (TraceModel, TraceReadReport)? {
            builder.reset()
            self.index = nil
            noteOnce("\(TraceIndex.path(forTrace: tracePath)): \(reason); rebuilding it")
            return nil
        }
        let point: TraceResumePoint?
        do throws(TraceIndexError) {
            point = try restore(builder, from: entry, of: index)
        } catch {
            return dropIndex(error.description)
        }
        guard let read = readChunksChecked(from: entry.batch, resumingAt: point, of: index, into: builder,
                                           progress: progress, readsOn: { position in
            guard let bound = builder.options.until ?? builder.decidedActionMoment else { return true }
            return !index.nothingAtOrBefore(bound, from: position)
        }), read.stoppedEarly || read.position == index.batches.count else {
            return dropIndex("does not match the trace")
        }
        moments.name(in: builder, from: read.position)
        var model = builder.finish()
        model.skippedEvents = index.skippedEvents
        model.clockEvents = index.clockEvents
        model.eventCount = index.events
        model.threadCount = max(model.threadCount, index.threadCount)
        model.latestTimestampRead = max(model.latestTimestampRead, index.latestTimestamp)
        model.hasValues = model.hasValues || index.hasValues
        resumedFrom = entry
        return (model, index.readReport(path: tracePath))
    }

    /// Writes the index a whole pass collected (with the model `keeping` makes), if the
    /// trace was whole and unchanged while read.
    private func leaveIndex(_ make: (TraceIndex.Identity, TraceReadReport) -> TraceIndex, report: TraceReadReport,
                            identity: TraceIndex.Identity?, keeping: ((TraceReadReport) -> TraceModel)?,
                            profiling: ((TraceReadReport) -> IndexedProfile)? = nil,
                            explaining: ((TraceReadReport, KeptExplanations?) -> KeptExplanations?)? = nil,
                            explainingAll: ((TraceReadReport) -> AllExplanations?)? = nil,
                            moments: IndexedMoments? = nil, positions: (() -> IndexedPositions)? = nil,
                            lightPoints: (() -> IndexedLightPoints?)? = nil,
                            mentions: (() -> IndexedMentions)? = nil,
                            valueRows: (() -> IndexedValueRows)? = nil) {
        guard writes, !report.stillRecording, TraceIndex.canIndex(report.truncation),
              let identity, (try? TraceIndex.identity(ofTrace: tracePath)) == identity else { return }
        var built = make(identity, report)
        // Kept only under this user's key (IndexKey): without one, a model read back could not be trusted.
        if IndexKey.current != nil, let model = keeping?(report), model.isPlain { built.model = IndexedModel(model) }
        if IndexKey.current != nil, built.model != nil, let profiling { built.profile = profiling(report) }
        // Explanations only beside the model that names their computations.
        if IndexKey.current != nil, built.model != nil, let explaining {
            built.explanations = explaining(report, built.explanations)
        }
        if IndexKey.current != nil, built.model != nil, let explainingAll {
            built.allExplanations = explainingAll(report)
        }
        // Snapshots of the pass that built the model, or of this pass over the same chunks.
        if IndexKey.current != nil, built.model != nil, !built.hasSnapshots, let moments {
            built.moments = moments
            built.positions = positions?()
            built.lightPoints = lightPoints?() ?? nil
            built.mentions = mentions?()
            built.valueRows = valueRows?()
        }
        do {
            try built.write(forTrace: tracePath)
            index = built
        } catch {
            noteOnce("cannot write the index \(TraceIndex.path(forTrace: tracePath)) (\(error)): answering by passes")
        }
    }
}

extension TraceIndex {
    /// Reads the whole trace at `tracePath` and writes its index beside it,
    /// with the whole trace's plain model and snapshots, replacing any there;
    /// the profile and explanations (kept ones and every computation's) that questions added to the index there are
    /// kept when that index is of this trace (valid, its chunks the ones read). Throws ``TraceIndexError`` for a trace that cannot
    /// be indexed (one still being recorded, one that changed while read) or
    /// an index that cannot be written, and ``TraceFileError`` for an unreadable trace.
    public static func build(forTrace tracePath: String, progress: ((Int) -> Void)? = nil) throws
        -> (TraceIndex, TraceReadReport) {
        try build(forTrace: tracePath, progress: progress, snapshotInterval: MomentSnapshotter.fixedInterval)
    }

    /// As ``build(forTrace:progress:)``, with a snapshot every `snapshotInterval` bytes of the
    /// trace (nil: as the budget allows, ``MomentSnapshotter``).
    static func build(forTrace tracePath: String, progress: ((Int) -> Void)?, snapshotInterval: UInt64?) throws
        -> (TraceIndex, TraceReadReport) {
        let identity = try TraceIndex.identity(ofTrace: tracePath)
        // A stale, damaged or foreign one (or one of another key) loads as nothing to keep.
        let existing = try? TraceIndex.load(forTrace: tracePath)
        // Values tracked for the snapshots; the model kept is the plain one, without them.
        let builder = TraceModelBuilder(options: TraceModelBuilder.checkpointOptions, numbersActions: true)
        var snapshotter = MomentSnapshotter(builder: builder, interval: snapshotInterval)
        var pass = IndexPassCollector(takesSections: true)
        let valueRows = ValueRowsCollector(traceSize: identity.size)
        builder.valueRows = valueRows
        let (report, _) = try TraceFile.forEachBatchWithOffsets(path: tracePath, progress: progress) { batch in
            pass.add(batch, feeding: builder)
        } ended: { endOffset, reader in
            let batch = pass.table.finishBatch(endOffset: endOffset)
            valueRows.read(upTo: endOffset)
            snapshotter?.ended(batch, builder: builder, reader: reader)
            pass.lightPoints.ended(batch, builder: builder, reader: reader)
            return true
        }
        let collector = pass.table
        snapshotter?.finished(builder: builder)
        guard !report.stillRecording else {
            throw TraceIndexError.unavailable("\(tracePath) is still being recorded: an index is built from a finished trace")
        }
        guard TraceIndex.canIndex(report.truncation), try TraceIndex.identity(ofTrace: tracePath) == identity else {
            throw TraceIndexError.unavailable("\(tracePath) changed while it was read")
        }
        var index = collector.index(identity: identity, report: report)
        var model = builder.finish()
        model.forgetValues()
        model.skippedEvents = report.skippedEvents
        model.clockEvents = report.clockEvents
        if IndexKey.current != nil {
            index.model = IndexedModel(model)
            index.moments = snapshotter?.moments(names: collector.names)
            if index.hasSnapshots {
                index.positions = pass.positions.positions()
                index.lightPoints = pass.lightPoints.lightPoints()
                index.mentions = pass.mentions.mentions()
                index.valueRows = valueRows.valueRows(id: builder.nodeID, valueEvents: builder.valueEvents)
            }
            // Beside the model they were built with: the same trace's, as its chunks are the same.
            if let existing, existing.keepsModel, existing.batches == index.batches {
                index.profile = existing.profile
                index.explanations = existing.explanations
                index.allExplanations = existing.allExplanations
            }
        }
        try index.write(forTrace: tracePath)
        return (index, report)
    }
}

extension TraceFile {
    /// As ``forEachBatch(path:progressEvery:progress:_:)``, also telling
    /// `ended` the file offset right after each batch's chunk; reading stops
    /// early when `ended` returns false (then the second result is true and
    /// the report covers only what was read).
    /// With `resumingAt`, reading starts from there (``TraceReader/init(path:resumingAt:mode:)``).
    static func forEachBatchWithOffsets(path: String, progress: ((Int) -> Void)?,
                                        resumingAt point: TraceResumePoint? = nil,
                                        _ body: (borrowing TraceEventBatch) -> Void,
                                        ended: (UInt64, TraceReader) -> Bool) throws(TraceFileError)
        -> (TraceReadReport, stoppedEarly: Bool) {
        let reader = try TracePass.reader(path: path, resumingAt: point)
        let pass = TracePass.current
        var count = 0, nextProgress = progress == nil ? Int.max : progressInterval
        var stoppedEarly = false
        var batchCount = 0
        while (try? reader.nextBatch({ batch in body(batch); batchCount = batch.count })) == true {
            count += batchCount
            try pass?.read(batchCount, path: path)
            let readsOn = ended(UInt64(reader.bytesRead), reader)
            while count >= nextProgress {
                progress?(nextProgress)
                nextProgress += progressInterval
            }
            if !readsOn {
                stoppedEarly = true
                break
            }
        }
        let report = TraceReadReport(path: path, events: count, truncation: reader.truncation,
                                     skippedEvents: reader.skippedEvents, clockEvents: reader.clockEvents,
                                     trailingBytesOffset: reader.trailingBytesOffset, end: reader.end,
                                     stillRecording: reader.isStillRecording, metadata: reader.metadata,
                                     history: reader.history)
        return (report, stoppedEarly)
    }
}
