/** The module-path consumer: the same program, as a module that reads bforest's. */
module org.example.consumer {
    requires org.bforest;
}
