"""The replay viewer, for every game: `screen` steps through a game and branches from any point,
`analysis` runs the analysis in a worker and draws its graph, marks and jump keys."""
from dicehall.tui.screens.viewer.analysis import AnalysedViewer, AnalysisPanel, AnalysisStopped, graph_rows
from dicehall.tui.screens.viewer.screen import ViewerScreen, replay_title

__all__ = ["AnalysedViewer", "AnalysisPanel", "AnalysisStopped", "ViewerScreen", "graph_rows", "replay_title"]
