import Testing

@Suite struct InspectCommandTests {}
