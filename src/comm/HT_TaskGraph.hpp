#pragma once
/// \file HT_TaskGraph.hpp
/// \brief A task graph defined once and replayed: nodes are tasks with inputs
/// and an output, edges are local or remote (the producer on another rank).
///
/// Why.  An iteration that runs the same graph every time (a Cannon step, a
/// Task Bench step, a search's levels) would otherwise spawn and connect its
/// tasks again and again.  Here the structure is built once (instantiate):
/// each node's dependency counter, its inputs' addresses, its successors and
/// one message per remote producer and consumer rank (sent with MPI_Isend,
/// or a persistent request: RemoteEdges).  A replay spawns no graph
/// structure: it posts the first receives, spawns one worker task per thread on the
/// rank's ht::TaskRuntime, and the workers take ready nodes from a queue, run
/// them, and count down their successors (a counter that reaches zero is reset
/// for the next replay by the worker that took it there).
///
/// The rules.
///  - SPMD definition: every rank makes the same add_node/add_edge calls (ids
///    are given in call order, from 0), so every rank checks the whole graph
///    the same way and refuses it with the others; instantiate() first
///    verifies that the ranks agree.  Each rank keeps only its own nodes
///    afterwards (the whole declaration is O(nodes + edges) per rank until
///    then).
///  - Node \p v's inputs are its producers' outputs, in the order its edges
///    were added; its output has the size given to add_node.
///  - Refused when defined (ht::UsageError, on every rank): an edge naming a
///    node that does not exist, an edge given twice, an owner that is not a
///    rank, and (at instantiate) a cycle, which is quoted node by node.
///  - A node that throws ends the job (ht::abort_all, node and replay named).
///  - MPI calls are made by one thread at a time (ht::OneCaller), so
///    MPI_THREAD_SERIALIZED suffices (but for the MPI_Abort of a failing
///    node, which does not wait for its turn).
///
/// Example: examples/task_graph.cpp (a chain over the ranks, replayed).
#include <mpi.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

/// \brief What a node's body receives on one replay.
struct NodeArgs {
  long node = 0;    ///< the node's id
  long replay = 0;  ///< 0 for the first replay since instantiate()
  int worker = 0;   ///< the thread running it, in [0, threads)
  int n_inputs = 0;
  const std::byte* const* input = nullptr;  ///< input[i]: producer i's output
  const std::size_t* input_bytes = nullptr;
  std::byte* output = nullptr;  ///< this node's output, written by the body
  std::size_t output_bytes = 0;
};

/// \brief A node's work; called on its owner rank only, once per replay.
using NodeBody = std::function<void(const NodeArgs&)>;

namespace impl {
struct GraphPlan;
}

/// \brief How a remote edge's output travels, each replay.
///  - \c messages: MPI_Isend when the producer ends, MPI_Irecv posted a few
///    ahead of the receives awaited (the default: the faster of the two, see
///    docs/performance/taskbench.md).
///  - \c persistent: MPI_Send_init / MPI_Recv_init once, MPI_Start each replay.
enum class RemoteEdges { messages, persistent };

/// \brief A task graph over the ranks of a communicator: defined once,
/// instantiated once, replayed many times.
class TaskGraph {
 public:
  /// A graph over the ranks of \p comm (duplicated: its messages keep to it).
  explicit TaskGraph(MPI_Comm comm, RemoteEdges how = RemoteEdges::messages);
  ~TaskGraph();
  TaskGraph(const TaskGraph&) = delete;
  TaskGraph& operator=(const TaskGraph&) = delete;

  /// \brief Declares a node run by rank \p owner, whose output has
  /// \p output_bytes; returns its id.  \p body is kept on the owner only.
  long add_node(int owner, std::size_t output_bytes, NodeBody body);
  /// \brief Makes \p to wait for \p from and read its output (as its next
  /// input).  Throws ht::UsageError naming the edge if either node does not
  /// exist or the edge was given before.
  void add_edge(long from, long to);

  /// \brief Checks the whole graph (a cycle is refused with its nodes named;
  /// ranks that declared different graphs are an error) and builds the
  /// replay structure and the persistent requests.  Collective.
  void instantiate();
  /// \brief Runs the graph \p times times on \p rt's threads; returns when
  /// this rank's nodes have run and its messages are delivered.  Collective.
  void replay(TaskRuntime& rt, int times = 1);

  /// Nodes of the whole graph.
  long size() const { return static_cast<long>(owner_.size()); }
  /// Nodes this rank runs.
  long local_size() const;
  /// Replays run since instantiate().
  long replays() const { return replays_; }
  /// Messages one replay sends from this rank.
  long sends() const;
  /// Task-runtime pool enough for the worker tasks of a replay.
  static std::size_t pool_bytes();

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  RemoteEdges how_;
  int rank_ = 0, ranks_ = 1;
  // The whole graph, as declared (dropped by instantiate).
  std::vector<int> owner_;
  std::vector<std::size_t> bytes_;
  std::vector<std::vector<long>> preds_;  // per node, in add_edge order
  std::vector<NodeBody> body_;            // empty for other ranks' nodes
  /// Refuses a graph that the ranks declared differently (collective).
  void check_agreement() const;
  /// Refuses a graph whose messages between two ranks outnumber MPI's tags.
  void check_tags() const;
  std::unique_ptr<impl::GraphPlan> plan_;
  long replays_ = 0;
};

}  // namespace ht
